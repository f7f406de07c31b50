import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildSuite,
  checkSuiteDefinition,
  drawInstance,
  instanceSeed,
  MAX_WEIGHT,
  parseProblemId,
  problemConfig,
  problemId,
  SuiteError,
} from '../../../src-shared/competition/suite.ts';
import { DEFAULT_ALPHA, DEFAULT_BETA, DEFAULT_GAMMA, TRACK_OBJECTIVES, trackConfig, validateConfig } from '../../../src-shared/problems/dice/config.ts';
import { Random } from '../../../src-shared/random.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';

describe('the competition suite generator', () => {
  it('draws the example of docs/competition.md exactly (secret "example-secret", N = 840, instances 1 and 2)', () => {
    expect(instanceSeed('example-secret', 840, 1)).toBe(2727032773846032);
    expect(drawInstance('example-secret', 840, 1)).toEqual({
      alpha: [1, 2, 3, 0, 2, 24, 2, 1, 1, 0, 1, 0, 0, 1, 0],
      beta: [4, 4, 6, 3, 5, 26, 6, 1, 2, 2, 2, 1, 2, 2, 0],
      gamma: [7, 6, 2, 10, 3, 8, 8, 5, 3, 10, 9, 3, 6, 3, 8],
    });
    expect(drawInstance('example-secret', 840, 2).gamma).toEqual([9, 6, 10, 2, 8, 6, 5, 7, 4, 5, 9, 4, 4, 1, 4]);
  });

  it('follows the documented recipe: seed from sha256 of the secret, N and k; alpha, width per feature, then the weights', () => {
    for (const [secret, n, k] of [
      ['organiser-2026', 840, 3],
      ['another secret with spaces', 50, 1],
      ['ünïcode-sécret', 27720, 7],
    ] as const) {
      const hex = createHash('sha256').update(`saikoro-competition-1|${secret}|n${n}|i${k}`, 'utf8').digest('hex');
      const seed = Number.parseInt(hex.slice(0, 13), 16);
      expect(instanceSeed(secret, n, k)).toBe(seed);
      const random = Random.fromSeed(seed);
      const alpha: number[] = [];
      const beta: number[] = [];
      for (let i = 0; i < 15; i++) {
        const w = DEFAULT_BETA[i] - DEFAULT_ALPHA[i];
        const s = Math.max(1, w);
        const a = random.int(Math.max(0, DEFAULT_ALPHA[i] - s), DEFAULT_ALPHA[i] + s);
        alpha.push(a);
        beta.push(a + random.int(Math.max(0, w - 1), w + 1));
      }
      const gamma = Array.from({ length: 15 }, () => random.int(1, 10));
      expect(drawInstance(secret, n, k)).toEqual({ alpha, beta, gamma });
    }
  });

  it('instance 0 is the public configuration, whatever the secret', () => {
    expect(problemConfig('secret-one', 'mo3', 840, 0)).toEqual(trackConfig('mo3', 840));
    expect(drawInstance('secret-two', 50, 0)).toEqual({ alpha: DEFAULT_ALPHA, beta: DEFAULT_BETA, gamma: DEFAULT_GAMMA });
  });

  it('gives every draw valid and within the documented ranges, over 2,000 draws, and reaches each end of every range', () => {
    const seenAlpha = DEFAULT_ALPHA.map(() => new Set<number>());
    const seenWidth = DEFAULT_ALPHA.map(() => new Set<number>());
    const seenGamma = new Set<number>();
    for (let d = 0; d < 2000; d++) {
      const { alpha, beta, gamma } = drawInstance(`secret-${d}`, 840, 1 + (d % 5));
      const config = problemConfig(`secret-${d}`, 'so', 840, 1 + (d % 5));
      expect(() => validateConfig(config)).not.toThrow();
      for (let i = 0; i < 15; i++) {
        const w = DEFAULT_BETA[i] - DEFAULT_ALPHA[i];
        const s = Math.max(1, w);
        expect(Number.isInteger(alpha[i]) && Number.isInteger(beta[i]) && Number.isInteger(gamma[i])).toBe(true);
        expect(alpha[i]).toBeGreaterThanOrEqual(Math.max(0, DEFAULT_ALPHA[i] - s));
        expect(alpha[i]).toBeLessThanOrEqual(DEFAULT_ALPHA[i] + s);
        expect(beta[i] - alpha[i]).toBeGreaterThanOrEqual(Math.max(0, w - 1));
        expect(beta[i] - alpha[i]).toBeLessThanOrEqual(w + 1);
        expect(gamma[i]).toBeGreaterThanOrEqual(1);
        expect(gamma[i]).toBeLessThanOrEqual(MAX_WEIGHT);
        seenAlpha[i].add(alpha[i]);
        seenWidth[i].add(beta[i] - alpha[i]);
        seenGamma.add(gamma[i]);
      }
    }
    for (let i = 0; i < 15; i++) {
      const w = DEFAULT_BETA[i] - DEFAULT_ALPHA[i];
      const s = Math.max(1, w);
      expect(seenAlpha[i].size).toBe(DEFAULT_ALPHA[i] + s - Math.max(0, DEFAULT_ALPHA[i] - s) + 1);
      expect(seenWidth[i].size).toBe(w + 1 - Math.max(0, w - 1) + 1);
    }
    expect([...seenGamma].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('depends on the secret, N and the instance, not on the track', () => {
    const a = drawInstance('organiser-secret', 840, 1);
    expect(drawInstance('organiser-secret', 840, 1)).toEqual(a);
    expect(drawInstance('organiser-secreT', 840, 1)).not.toEqual(a);
    expect(drawInstance('organiser-secret', 841, 1)).not.toEqual(a);
    expect(drawInstance('organiser-secret', 840, 2)).not.toEqual(a);
    const so = problemConfig('organiser-secret', 'so', 840, 1);
    const mo5 = problemConfig('organiser-secret', 'mo5', 840, 1);
    expect(mo5.alpha).toEqual(so.alpha);
    expect(mo5.gamma).toEqual(so.gamma);
    expect(mo5.objectives).toEqual(TRACK_OBJECTIVES.mo5);
    expect(so.objectives).toEqual(TRACK_OBJECTIVES.so);
    // The public constraints and percent points.
    expect(mo5.constraints).toEqual(trackConfig('mo5', 840).constraints);
    expect(mo5.lowerBounds).toEqual(trackConfig('mo5', 840).lowerBounds);
  });

  it('a drawn instance is a problem the evaluator takes (the errors move with the bands)', () => {
    const x = new Uint8Array(840).map((_, i) => 1 + ((i * 7 + (i >> 3)) % 6));
    const fh = evaluateDice(x, problemConfig('organiser-secret', 'so', 840, 1)).objectives[0];
    const fo = evaluateDice(x, trackConfig('so', 840)).objectives[0];
    expect(Number.isFinite(fh)).toBe(true);
    expect(fh).not.toBe(fo);
  });

  it('builds a suite track-major, then N, then instance, with ids <track>-n<N>-i<k>; instance 0 only with the public one', () => {
    const suite = buildSuite({ tracks: ['so', 'mo2'], ns: [840, 50], instances: 2, withPublic: false }, 'organiser-secret');
    expect(suite.map((p) => p.id)).toEqual(['so-n840-i1', 'so-n840-i2', 'so-n50-i1', 'so-n50-i2', 'mo2-n840-i1', 'mo2-n840-i2', 'mo2-n50-i1', 'mo2-n50-i2']);
    expect(suite.every((p) => p.hidden)).toBe(true);
    expect(suite[4].config).toEqual(problemConfig('organiser-secret', 'mo2', 840, 1));
    const withPublic = buildSuite({ tracks: ['mo7'], ns: [840], instances: 1, withPublic: true }, 'organiser-secret');
    expect(withPublic.map((p) => [p.id, p.hidden])).toEqual([
      ['mo7-n840-i0', false],
      ['mo7-n840-i1', true],
    ]);
    expect(withPublic[0].config).toEqual(trackConfig('mo7', 840));
  });

  it('parses problem ids and refuses what is not one', () => {
    expect(parseProblemId('so-n840-i3')).toEqual({ track: 'so', n: 840, instance: 3 });
    expect(parseProblemId(problemId('mo7', 27720, 0))).toEqual({ track: 'mo7', n: 27720, instance: 0 });
    for (const bad of ['so-n840', 'mo4-n840-i1', 'so-n0840-i1', 'so-n840-i01', 'SO-n840-i1', 'so-n840-i1 ', 'so-n-1-i1'])
      expect(parseProblemId(bad)).toBeNull();
  });

  it('refuses bad definitions and short secrets, naming the field', () => {
    const ok = { tracks: ['so'] as const, ns: [840], instances: 5, withPublic: false };
    const bad = (change: object) => () => checkSuiteDefinition({ ...ok, tracks: [...ok.tracks], ...change });
    expect(bad({ tracks: [] })).toThrow('tracks: must name at least one track');
    expect(bad({ tracks: ['so', 'mo4'] })).toThrow('tracks: unknown track "mo4"');
    expect(bad({ tracks: ['so', 'so'] })).toThrow('tracks: a track is named twice');
    expect(bad({ ns: [] })).toThrow('n: must give at least one');
    expect(bad({ ns: [0] })).toThrow('n: each N must be a whole number from 1 to 10000000, got 0');
    expect(bad({ ns: [840, 840] })).toThrow('n: an N is given twice');
    expect(bad({ instances: -1 })).toThrow('instances: must be a whole number from 0 to 100');
    expect(bad({ instances: 101 })).toThrow('instances: must be a whole number from 0 to 100, got 101');
    expect(bad({ instances: 0 })).toThrow('--with-public');
    expect(() => checkSuiteDefinition({ ...ok, tracks: ['so'], instances: 0, withPublic: true })).not.toThrow();
    expect(() => buildSuite({ ...ok, tracks: ['so'] }, 'short')).toThrow(SuiteError);
    expect(() => buildSuite({ ...ok, tracks: ['so'] }, 'short')).toThrow('secret: must have at least 8 characters');
    expect(() => drawInstance('organiser-secret', 840, -1)).toThrow('instance: must be a whole number');
  });
});
