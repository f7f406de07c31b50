// A program's line read straight into faces (parseProgramLine) must be what JSON.parse and then
// the sequence parser give, errors included, for every line: the fast reading of a plain request
// and the JSON.parse path for everything else.
import { describe, expect, it } from 'vitest';
import {
  parseProgramLine,
  parseProgramMessage,
  parseRequestSequences,
  ProtocolError,
  type ParsedProgramLine,
} from '../../../src-shared/solvers/program/protocol.ts';
import { Random } from '../../../src-shared/random.ts';

const N = 12;

/** The reference: JSON.parse (parseProgramMessage), then each item as a sequence. */
function reference(line: string): ParsedProgramLine {
  const message = parseProgramMessage(line, 7);
  return 'log' in message ? message : { evaluate: parseRequestSequences(message.evaluate, N) };
}

function outcome(parse: (line: string) => ParsedProgramLine, line: string): unknown {
  try {
    const m = parse(line);
    if ('log' in m) return m;
    return { ...m.evaluate, faces: m.evaluate.faces.map((f) => Array.from(f).join('')) };
  } catch (e) {
    if (!(e instanceof ProtocolError)) throw e;
    return { protocolError: e.message };
  }
}

function same(line: string): void {
  expect(
    outcome((l) => parseProgramLine(l, 7, N), line),
    JSON.stringify(line),
  ).toEqual(outcome(reference, line));
}

describe("a program's line, parsed once into faces", () => {
  const a = '123456123456';
  const b = '666655554444';

  it('reads plain requests as JSON.parse does, whatever the whitespace', () => {
    for (const line of [
      `{"evaluate":["${a}","${b}"]}`,
      `{"evaluate": ["${a}", "${b}"]}`,
      ` \t{ "evaluate" :\r\n[ "${a}" ,\n"${b}" ] }\n`,
      '{"evaluate":[]}',
      '{"evaluate": [ ]}',
    ])
      same(line);
    const m = parseProgramLine(`{"evaluate": ["${a}", "${b}"]}`, 1, N);
    expect('evaluate' in m && m.evaluate.faces.map((f) => Array.from(f))).toEqual([Array.from(a, Number), Array.from(b, Number)]);
  });

  it('gives each invalid sequence the error of the sequence parser, at its index', () => {
    for (const line of [
      `{"evaluate":["${a}","7${a.slice(1)}","123","${a}1","","1234561234５6","${b}"]}`,
      `{"evaluate":["${a}",12,null,["${a}"],{"x":1},true]}`,
      `{"evaluate":["12345612345\\u0036","${a}"]}`, // an escape that makes a valid sequence
      `{"evaluate":["12345612345\\"","\\n"]}`,
      `{"evaluate":["\ud800${a.slice(1)}"]}`,
    ])
      same(line);
    const m = parseProgramLine(`{"evaluate":["${a}","0${a.slice(1)}","12"]}`, 1, N);
    expect('evaluate' in m && m.evaluate.errors).toEqual([
      { index: 1, message: 'character "0" at position 1 is not a die face 1-6' },
      { index: 2, message: 'the sequence has 2 characters, expected N = 12' },
    ]);
    expect('evaluate' in m && m.evaluate.valid).toEqual([0]);
  });

  it('refuses what JSON.parse refuses, with the same message', () => {
    for (const line of [
      `{"evaluate":["${a}",]}`,
      `{"evaluate":["${a}"],}`,
      `{"evaluate":["${a}"]`,
      `{"evaluate":["${a}"]} x`,
      `{"evaluate":["${a}"`,
      `{"evaluate":["${a.slice(0, 5)}\t${a.slice(6)}"]}`, // a raw tab inside a string
      `\ufeff{"evaluate":["${a}"]}`,
      `{"evaluate":["${a}"],"evaluate":["${b}"]}`,
      `{"evaluate":["${a}"],"log":"x"}`,
      '{"evaluate":"123"}',
      '{"log":"hello"}',
      '{"\\u0065valuate":["123456123456"]}',
      '[]',
      '',
      'null',
    ])
      same(line);
  });

  it('agrees with JSON.parse on random lines cut and spliced from requests', () => {
    const random = Random.fromSeed(29);
    const pieces = [`"${a}"`, `"${b}"`, '"1"', '"7"', ',', ' ', '\n', '[', ']', '{', '}', ':', '"evaluate"', '"\\u0031"', '"', '\\', '12', 'null'];
    for (let t = 0; t < 3000; t++) {
      let line = `{"evaluate":[`;
      const parts = random.int(0, 8);
      for (let k = 0; k < parts; k++) line += k && random.below(3) ? `,"${random.below(2) ? a : b}"` : pieces[random.below(pieces.length)];
      line += random.below(4) ? ']}' : pieces[random.below(pieces.length)];
      same(line);
    }
  });
});
