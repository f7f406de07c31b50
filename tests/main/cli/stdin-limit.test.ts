// More than the stdin limit on stdin: a clear error naming the limit, never "RangeError: Invalid
// string length" (eval) or "Cannot create a string longer than ..." (rngbias). The readers take
// their limit as a parameter, so most of this runs with a small one; the commands' own default
// is checked once each, with a stream that yields one 1 MB buffer over and over (it claims
// hundreds of MB and costs 1).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InputError, readAll, readLines, STDIN_LIMIT_BYTES, TooLongLine } from '../../../src-main/cli/command.ts';
import { runCli } from './io.ts';

const MB = 1024 * 1024;

/** `count` chunks, each the same buffer (no copy), then `tail`. */
function repeated(chunk: Buffer, count: number, tail = ''): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent < count) {
        sent++;
        this.push(chunk);
      } else {
        if (tail) this.push(Buffer.from(tail));
        this.push(null);
      }
    },
  });
}

describe('readAll', () => {
  it('reads what is within the limit, refuses more with the limit named', async () => {
    expect(await readAll(Readable.from([Buffer.from('12'), Buffer.from('34é')]), { limitBytes: 6 })).toBe('1234é');
    await expect(readAll(Readable.from([Buffer.from('1234'), Buffer.from('567')]), { limitBytes: 6 })).rejects.toThrow(
      new InputError('stdin holds more than 6 bytes, the limit'),
    );
  });

  it('stops reading at the limit', async () => {
    const stream = repeated(Buffer.alloc(1000, 0x31), 1_000_000);
    await expect(readAll(stream, { limitBytes: 10_000 })).rejects.toThrow(InputError);
    expect(stream.destroyed).toBe(true);
  });
});

describe('readLines', () => {
  it('splits on LF (CRLF too) across chunks, decodes UTF-8 split between chunks, keeps a last line without LF', async () => {
    const e = Buffer.from('é');
    const chunks = [Buffer.from('ab\r\ncd'), Buffer.from('ef\n\ngh'), e.subarray(0, 1), Buffer.concat([e.subarray(1), Buffer.from('\nlast')])];
    const lines: (string | TooLongLine)[] = [];
    for await (const line of readLines(Readable.from(chunks), { limitBytes: 100 })) lines.push(line);
    expect(lines).toEqual(['ab', 'cdef', '', 'ghé', 'last']);
  });

  it('gives a line over the limit as TooLongLine, skips it to its end, and goes on', async () => {
    const text = `short\n${'x'.repeat(25)}\n${'y'.repeat(7)}${'z'.repeat(30)}\nafter\n${'w'.repeat(11)}`;
    const chunks = text.match(/[^]{1,4}/g)!.map((c) => Buffer.from(c));
    const lines: (string | TooLongLine)[] = [];
    for await (const line of readLines(Readable.from(chunks), { limitBytes: 10 })) lines.push(line);
    expect(lines).toEqual(['short', new TooLongLine(10), new TooLongLine(10), 'after', new TooLongLine(10)]);
  });
});

describe('the commands at their real limit', () => {
  it(`the limit is ${STDIN_LIMIT_BYTES / MB} MB, below the longest string Node can make (about 512 MB)`, () => {
    expect(STDIN_LIMIT_BYTES).toBe(256 * MB);
  });

  it('rngbias: more than the limit on stdin is an error line naming it, exit 1', async () => {
    const r = await runCli(['rngbias', '-x', '4'], { stdin: repeated(Buffer.alloc(MB, 0x31), STDIN_LIMIT_BYTES / MB + 1) });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ objective: null, constraint: null, error: 'stdin holds more than 256 MB, the limit' });
  });

  it('eval: a line longer than the limit is an error line naming it, and the next line is evaluated', async () => {
    const r = await runCli(['eval'], { stdin: repeated(Buffer.alloc(MB, 0x31), STDIN_LIMIT_BYTES / MB + 1, '\n{"id": 2, "x": "3155"}\n') });
    expect(r.code).toBe(1);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out[0]).toEqual({ id: null, error: 'line longer than 256 MB, the limit of one line' });
    expect(out[1]).toMatchObject({ id: 2, objectives: [expect.any(Number)] });
    expect(out).toHaveLength(2);
  });
});
