// What a competition server folds into the file for each request: its packed sequences as raw
// deflate, compressed when they compress (similar sequences), stored blocks when they do not
// (random ones); inflate reads back the very bytes either way.
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateRecord, storedDeflate } from '../../../src-main/app/competition-service.ts';
import { packedBytes, packSequences, unpackSequences } from '../../../src-shared/competition/remote.ts';
import { Random } from '../../../src-shared/random.ts';

const inflate = (bytes: Uint8Array) => new Uint8Array(zlib.inflateRawSync(bytes));

function randomFaces(random: Random, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => random.int(1, 6));
}

describe("a request's sequences as the file keeps them", () => {
  it('stored blocks inflate to the bytes, at every size around a block (65535 bytes)', () => {
    const random = Random.fromSeed(5);
    for (const size of [0, 1, 280, 65534, 65535, 65536, 131070, 131071, 200_000]) {
      const bytes = Uint8Array.from({ length: size }, () => random.below(256));
      const stored = storedDeflate(bytes);
      expect(stored.length).toBe(size + 5 * Math.max(1, Math.ceil(size / 65535)));
      expect(Buffer.from(inflate(stored)).equals(Buffer.from(bytes))).toBe(true);
    }
  });

  it("random sequences are stored as they are; a local search's neighbours are compressed; both read back", () => {
    const n = 840;
    const random = Random.fromSeed(29);
    const randomBatch = Array.from({ length: 100 }, () => randomFaces(random, n));
    const base = randomFaces(random, n);
    const neighbours = Array.from({ length: 100 }, () => {
      const x = base.slice();
      x[random.below(n)] = random.int(1, 6);
      return x;
    });
    for (const [batch, compressed] of [
      [randomBatch, false],
      [neighbours, true],
    ] as const) {
      const packed = packSequences(batch, n);
      const record = deflateRecord(packed, packedBytes(n));
      if (compressed) expect(record.length).toBeLessThan(packed.length / 10);
      else expect(record).toEqual(storedDeflate(packed));
      expect(unpackSequences(inflate(record), n)).toEqual(batch.map((x) => Array.from(x).join('')));
    }
    // One sequence alone has nothing to compare with: deflated.
    const one = packSequences([base], n);
    expect(deflateRecord(one, packedBytes(n))).toEqual(new Uint8Array(zlib.deflateRawSync(one, { level: 1 })));
  });
});
