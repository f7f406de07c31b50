/**
 * A command line typed as one string (`saikoro solve --command "python3 my_ga.py --pop 100"`,
 * the app's command field) split into argv the way a POSIX shell splits words, without a shell:
 * no variables, globs, pipes or redirections are expanded, so what runs is exactly the words.
 * Single quotes keep everything literally; double quotes keep everything but \" \\ \$ \`;
 * a backslash outside quotes escapes the next character.
 */
export class CommandLineError extends Error {
  override name = 'CommandLineError';
}

export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new CommandLineError(`unterminated ' (single quote) at character ${i + 1}`);
      word += text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1])) j++;
        word += text[j];
      }
      if (j >= text.length) throw new CommandLineError(`unterminated " (double quote) at character ${i + 1}`);
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new CommandLineError('a backslash at the end of the command escapes nothing');
      word += text[++i];
    } else word += c;
  }
  if (inWord) words.push(word);
  if (words.length === 0) throw new CommandLineError('the command is empty');
  return words;
}

/** A default name for a program solver: its script's (or program's) file name, without extension. */
export function defaultProgramName(command: readonly string[]): string {
  const script = command.length > 1 && !command[1].startsWith('-') ? command[1] : command[0];
  const base = script.split(/[\\/]/).pop() ?? script;
  const name = base
    .replace(/\.[A-Za-z0-9]+$/, '')
    .replace(/[^A-Za-z0-9._+-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  return name || 'program';
}
