// The pure parts of the competition service: the hello of a remote run, a request checked before
// anything is evaluated, the token bucket, and the packing of stored sequences.
import { describe, expect, it } from 'vitest';
import {
  checkRequest,
  messageBytesFor,
  packedBytes,
  packSequences,
  RemoteRefusal,
  remoteHello,
  TokenBucket,
  unpackSequences,
} from '../../../src-shared/competition/remote.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { helloMessage } from '../../../src-shared/solvers/program/protocol.ts';
import { Random } from '../../../src-shared/random.ts';

function refusal(fn: () => unknown): RemoteRefusal {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RemoteRefusal);
    return e as RemoteRefusal;
  }
  throw new Error('not refused');
}

describe('the hello of a remote run', () => {
  it('is the blind first line of a pipe run with what is left of the budget beside it', () => {
    const config = trackConfig('mo3', 70);
    const hello = remoteHello(config, 5000, 1200, 3);
    expect(hello).toEqual({ ...helloMessage(config, 5000, 3, true), remaining: 1200 });
    expect(hello.problem).toEqual({ n: 70, lower: 1, upper: 6, objectives: 3, constraints: 12 });
    expect(JSON.stringify(hello)).not.toMatch(/alpha|beta|gamma|track/);
  });
});

describe('a request checked before it is evaluated', () => {
  const n = 10;
  it('splits valid sequences from invalid ones; a request with none valid carries its errors', () => {
    const r = checkRequest(JSON.stringify({ evaluate: ['1234561234', '7234561234', '123'] }), n, 5)!;
    expect(r.count).toBe(3);
    expect(r.valid.map((x) => Array.from(x).join(''))).toEqual(['1234561234']);
    expect(r.errors).toBeNull();
    expect(checkRequest(JSON.stringify({ evaluate: ['x'] }), n, 5)!.errors).toEqual(['the sequence has 1 characters, expected N = 10']);
    expect(checkRequest(JSON.stringify({ evaluate: [] }), n, 5)!.errors).toEqual([]);
    expect(checkRequest('{"log": "hello"}', n, 5)).toBeNull();
  });

  it('refuses what is not a request, and too many sequences, saying nothing was evaluated', () => {
    expect(refusal(() => checkRequest('{"evaluate": ["12', n, 5))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^this message is not JSON: ".*"; nothing was evaluated$/),
    });
    expect(refusal(() => checkRequest('[1]', n, 5)).message).toMatch(/^this message is not a protocol message/);
    expect(refusal(() => checkRequest('{"evaluate": "1234"}', n, 5)).message).toBe(
      'this message: "evaluate" must be a list of strings, got "1234"; nothing was evaluated',
    );
    const big = refusal(() => checkRequest(JSON.stringify({ evaluate: Array(6).fill('1234561234') }), n, 5));
    expect([big.status, big.message]).toEqual([
      413,
      'this request holds 6 sequences; at most 5 per request on this server (send several requests); nothing was evaluated',
    ]);
    expect(big.toJSON()).toEqual({ error: big.message });
  });

  it('sizes the default message limit for a full batch', () => {
    const text = JSON.stringify({ evaluate: Array(1000).fill('1'.repeat(840)) });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(messageBytesFor(1000, 840));
  });
});

describe('the token bucket', () => {
  it('gives a burst, then the rate, and says how long to wait', () => {
    const bucket = new TokenBucket(10, 3, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([0, 0, 0]);
    expect(bucket.take(0)).toBeCloseTo(0.1, 12);
    expect(bucket.take(50)).toBeCloseTo(0.05, 12);
    expect(bucket.take(100)).toBe(0);
    // It never holds more than the burst.
    expect([bucket.take(10_000), bucket.take(10_000), bucket.take(10_000), bucket.take(10_000) > 0]).toEqual([0, 0, 0, true]);
  });
});

describe('packed sequences', () => {
  it('round-trip three faces a byte, for every length mod 3', () => {
    const random = Random.fromSeed(7);
    for (const n of [1, 2, 3, 4, 5, 60, 61, 62, 840]) {
      const sequences = Array.from({ length: 17 }, () => Uint8Array.from({ length: n }, () => random.int(1, 6)));
      const packed = packSequences(sequences, n);
      expect(packed.length).toBe(17 * packedBytes(n));
      expect(unpackSequences(packed, n)).toEqual(sequences.map((x) => Array.from(x).join('')));
    }
    expect(packSequences([], 5)).toEqual(new Uint8Array(0));
  });

  it('refuses bytes that are not a packing', () => {
    expect(() => unpackSequences(new Uint8Array(5), 9)).toThrow('5 bytes are not whole sequences of N = 9 (3 bytes each)');
    expect(() => unpackSequences(new Uint8Array([0, 216, 0]), 9)).toThrow('byte 1 is 216, not a packing of three faces');
    expect(() => packSequences([new Uint8Array(4)], 5)).toThrow('a sequence of length 4 in a batch of N = 5');
  });
});
