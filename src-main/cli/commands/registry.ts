import type { Command } from '../command.ts';

// One line per subcommand; each lives in its own file beside this one.
export const commands: Command[] = [
];
