import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src-shared/experiments/canonical-json.ts';
import { expandGrid, parseShard, runId, shardOf } from '../../../src-shared/experiments/grid.ts';
import { terminationOfBudget } from '../../../src-shared/solvers/stopping.ts';
import { sha256Hex } from '../../../src-shared/experiments/sha256.ts';
import { instanceConfig, SpecError, validateSpec } from '../../../src-shared/experiments/spec.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';

const base = {
  name: 'demo',
  instances: [
    { name: 'so-n20', track: 'so', n: 20 },
    { name: 'mo3-n30', track: 'mo3', n: 30 },
  ],
  solvers: [{ name: 'random' }, { name: 'random', label: 'random-b7', params: { batch: 7 } }],
  seeds: { count: 3 },
  budget: { evaluations: 200 },
};

describe('sha256Hex', () => {
  // FIPS 180-4 / NIST CSRC example values for "", "abc" and the 448-bit message.
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  ])('hashes %j', (text, hex) => expect(sha256Hex(text)).toBe(hex));
  it('handles multi-block and non-ASCII input (UTF-8)', () => {
    // Python 3: hashlib.sha256(b'a' * 64).hexdigest() (the padding spills into a second block)
    expect(sha256Hex('a'.repeat(64))).toBe('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb');
    // Python 3: hashlib.sha256('é'.encode()).hexdigest()
    expect(sha256Hex('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined fields', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 'x' }], c: undefined } })).toBe('{"a":{"d":[1,{"y":"x","z":0}]},"b":1}');
  });
  it('refuses non-finite numbers, naming the path', () => {
    expect(() => canonicalJson({ a: [1, NaN] })).toThrow(/\$\.a\[1\]/);
  });
});

describe('validateSpec', () => {
  it('accepts the documented example and fills nothing it was not given', () => {
    const spec = validateSpec(structuredClone(base));
    expect(spec.instances[1]).toEqual({ name: 'mo3-n30', track: 'mo3', n: 30 });
    expect(instanceConfig(spec.instances[1])).toEqual(trackConfig('mo3', 30));
  });

  it.each([
    [{ ...base, name: 'bad name' }, /^name: must be/],
    [{ ...base, instances: [] }, /^instances: must be a non-empty list/],
    [{ ...base, instances: [{ name: 'x', track: 'mo4' }] }, /^instances\[0\]\.track: must be one of so, mo2/],
    [{ ...base, instances: [{ name: 'x', n: 0 }] }, /^instances\[0\]\.n: must be at least 1/],
    [{ ...base, instances: [{ name: 'x', config: { gamma: [1] } }] }, /^instances\[0\]\.config\.gamma: must have 15 entries/],
    [{ ...base, instances: [{ name: 'x' }, { name: 'x' }] }, /^instances\[1\]: name "x" is used twice/],
    [{ ...base, instances: [{ name: 'x', colour: 1 }] }, /^instances\[0\]\.colour: is not a known field/],
    [{ ...base, instances: [{ name: 'x', track: 'mo2', normalisation: { ideal: [0, 0], nadir: [1, 0] } }] }, /nadir\[1\]: must exceed ideal\[1\]/],
    [{ ...base, solvers: [{ name: 'random' }, { name: 'random' }] }, /^solvers\[1\]: name "random" is used twice/],
    [{ ...base, seeds: [1, 1] }, /^seeds\[1\]: seed 1 is listed twice/],
    [{ ...base, seeds: { count: 0 } }, /^seeds\.count: must be at least 1/],
    [{ ...base, budget: { evaluations: 1.5 } }, /^budget\.evaluations: must be an integer/],
    [{ ...base, budget: { evaluations: 10, seconds: 3 } }, /^budget\.seconds: is not a known field/],
    [[], /^spec: must be a JSON object/],
    // Solver programs (docs/external-solvers.md).
    [{ ...base, solvers: [{ name: 'my-ga', command: [] }] }, /^solvers\[0\]\.command: must be a non-empty list of strings/],
    [
      { ...base, solvers: [{ name: 'my-ga', command: 'python3 my_ga.py' }] },
      /^solvers\[0\]\.command: must be a non-empty list of strings \(the program and its arguments\), got "python3 my_ga.py"/,
    ],
    [{ ...base, solvers: [{ name: 'my-ga', command: ['python3', 3] }] }, /^solvers\[0\]\.command\[1\]: must be a string, got 3/],
    [{ ...base, solvers: [{ name: 'my-ga', command: ['', 'x'] }] }, /^solvers\[0\]\.command\[0\]: must name the program to run/],
    [{ ...base, solvers: [{ name: 'my ga', command: ['python3'] }] }, /^solvers\[0\]\.name: must be 1-64 characters/],
    [{ ...base, solvers: [{ name: 'my-ga', command: ['python3'], params: { pop: 3 } }] }, /^solvers\[0\]\.params: a solver program takes no params/],
    [{ ...base, solvers: [{ name: 'my-ga', command: ['python3'], cwd: 3 }] }, /^solvers\[0\]\.cwd: must be a directory path, got 3/],
    [{ ...base, solvers: [{ name: 'my-ga', command: ['python3'], env: { PATH: 1 } }] }, /^solvers\[0\]\.env\.PATH: must be a string, got 1/],
    [{ ...base, solvers: [{ name: 'my-ga', command: ['python3'], env: { 'A-B': 'x' } }] }, /^solvers\[0\]\.env\.A-B: is not a valid environment variable name/],
    [{ ...base, solvers: [{ name: 'my-ga', command: ['python3'], blind: 'yes' }] }, /^solvers\[0\]\.blind: must be true or false, got "yes"/],
    [{ ...base, solvers: [{ name: 'my-ga', command: ['python3'], grace: 0 }] }, /^solvers\[0\]\.grace: must be a number of seconds, more than 0/],
    [{ ...base, solvers: [{ name: 'my-ga', command: ['python3'], timeout: -1 }] }, /^solvers\[0\]\.timeout: must be a number of seconds/],
    [
      { ...base, solvers: [{ name: 'my-ga', command: ['python3', 'a.py'], hashes: { 'a.py': 'abc' } }] },
      /^solvers\[0\]\.hashes\.a\.py: must be a sha256 hex digest/,
    ],
    [
      { ...base, solvers: [{ name: 'my-ga', command: ['python3', 'a.py'], hashes: { 'b.py': 'a'.repeat(64) } }] },
      /^solvers\[0\]\.hashes\.b\.py: is not an argument of the command/,
    ],
    [
      { ...base, solvers: [{ name: 'my-ga', command: ['python3'], shell: true }] },
      /^solvers\[0\]\.shell: is not a known field \(known: name, label, command, cwd, env, blind, grace, timeout, hashes, folder\)/,
    ],
    [
      {
        ...base,
        solvers: [
          { name: 'my-ga', command: ['a'] },
          { name: 'my-ga', command: ['b'] },
        ],
      },
      /^solvers\[1\]: name "my-ga" is used twice/,
    ],
  ])('refuses bad input with the field named (%#)', (input, message) => {
    expect(() => validateSpec(input)).toThrow(SpecError);
    expect(() => validateSpec(input)).toThrow(message);
  });
});

describe('expandGrid', () => {
  const runs = expandGrid(validateSpec(structuredClone(base)));

  it('expands a solver program entry like any solver; its command and file hashes are part of the run ids', () => {
    const program = { name: 'my-ga', command: ['python3', 'solvers/my_ga.py', '--pop', '100'], hashes: { 'solvers/my_ga.py': 'a'.repeat(64) } };
    const grid = (entry: object) => expandGrid(validateSpec({ ...structuredClone(base), solvers: [{ name: 'random' }, entry] }));
    const withProgram = grid(program);
    expect(withProgram.map((r) => r.id).slice(0, 3)).toEqual(runs.map((r) => r.id).slice(0, 3)); // the built-in's ids do not move
    const mine = withProgram.filter((r) => r.label === 'my-ga');
    expect(mine).toHaveLength(2 * 3);
    expect(mine[0]).toMatchObject({
      solver: 'my-ga',
      params: {},
      program: { command: program.command, hashes: program.hashes },
      launch: { command: program.command },
    });
    const ids = (entry: object) =>
      grid(entry)
        .filter((r) => r.label === 'my-ga')
        .map((r) => r.id);
    const base0 = ids(program);
    expect(new Set(base0).size).toBe(6);
    expect(ids({ ...program, command: ['python3', 'solvers/my_ga.py', '--pop', '200'] })).not.toEqual(base0);
    expect(ids({ ...program, hashes: { 'solvers/my_ga.py': 'b'.repeat(64) } })).not.toEqual(base0);
    expect(ids({ ...program, blind: true })).not.toEqual(base0);
    // Grace and timeout say how the program is run, not what it computes.
    expect(ids({ ...program, grace: 1, timeout: 300 })).toEqual(base0);
  });

  it('refuses a solver program named like a built-in solver', () => {
    expect(() => expandGrid(validateSpec({ ...structuredClone(base), solvers: [{ name: 'ga', command: ['python3', 'x.py'] }] }))).toThrow(
      /^solvers\[0\]\.name: "ga" is a built-in solver's name; give the solver program another name$/,
    );
  });

  it('makes instances × solvers × seeds runs in instance-major order', () => {
    expect(runs).toHaveLength(2 * 2 * 3);
    expect(runs.map((r) => `${r.instance}/${r.label}/${r.seed}`).slice(0, 4)).toEqual([
      'so-n20/random/1',
      'so-n20/random/2',
      'so-n20/random/3',
      'so-n20/random-b7/1',
    ]);
    expect(runs.map((r) => r.index)).toEqual(runs.map((_, i) => i));
    expect(runs[0].params).toEqual({ batch: 100 });
    expect(runs[3].params).toEqual({ batch: 7 });
  });

  it('gives distinct ids that depend on content only', () => {
    expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
    const renamed = expandGrid(validateSpec({ ...structuredClone(base), name: 'other', instances: [{ name: 'renamed', track: 'so', n: 20 }] }));
    expect(renamed[0].id).toBe(runs[0].id);
    // Key order in the config does not matter; a changed value does.
    const { id, index, instance, label, ...key } = runs[0];
    (void index, instance, label);
    expect(runId({ ...key, config: Object.fromEntries(Object.entries(key.config).reverse()) as typeof key.config })).toBe(id);
    expect(runId({ ...key, seed: key.seed + 1 })).not.toBe(id);
    expect(runId({ ...key, budget: { ...key.budget, evaluations: 201 } })).not.toBe(id);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('names an unknown solver, a bad parameter and an objective mismatch', () => {
    expect(() => expandGrid(validateSpec({ ...base, solvers: [{ name: 'nope' }] }))).toThrow(/solvers\[0\]\.name: unknown solver "nope" \(known: .*random/);
    expect(() => expandGrid(validateSpec({ ...base, solvers: [{ name: 'random', params: { batch: 0 } }] }))).toThrow(
      /solvers\[0\]\.params\.batch: .*must be >= 1/,
    );
    expect(() => expandGrid(validateSpec({ ...base, solvers: [{ name: 'random', params: { typo: 1 } }] }))).toThrow(/params\.typo: .*is unknown/);
  });

  it('applies the one stopping policy: a single-objective run stops at f = 0 unless the budget is whole; its budget (and id) says which', () => {
    const so = {
      name: 'p',
      instances: [
        { name: 's', track: 'so', n: 20 },
        { name: 'm', track: 'mo2', n: 20 },
      ],
      solvers: [{ name: 'random' }],
      seeds: [1],
      budget: { evaluations: 200 },
    };
    const [s, m] = expandGrid(validateSpec(so));
    expect(s.budget).toEqual({ evaluations: 200, target: 0 });
    expect(terminationOfBudget(s.budget)).toEqual({ maxEvaluations: 200, target: 0 });
    // Several objectives: no target, whatever the spec says.
    expect(m.budget).toEqual({ evaluations: 200 });
    expect(expandGrid(validateSpec({ ...so, budget: { evaluations: 200, target: 5 } }))[1].budget).toEqual({ evaluations: 200 });
    const [sw, mw] = expandGrid(validateSpec({ ...so, budget: { evaluations: 200, wholeBudget: true } }));
    expect(sw.budget).toEqual({ evaluations: 200 });
    expect(sw.id).not.toBe(s.id);
    expect(mw.id).toBe(m.id);
    const [st] = expandGrid(validateSpec({ ...so, budget: { evaluations: 200, target: 12 } }));
    expect(st.budget).toEqual({ evaluations: 200, target: 12 });
    expect(() => validateSpec({ ...so, budget: { evaluations: 200, target: 3, wholeBudget: true } })).toThrow(
      'budget.wholeBudget: cannot be true with a target: give one of them',
    );
    expect(() => validateSpec({ ...so, budget: { evaluations: 200, wholeBudget: 'yes' } })).toThrow('budget.wholeBudget: must be true or false, got "yes"');
  });

  it('splits into shards that partition the grid', () => {
    const shards = [1, 2, 3, 4, 5].map((k) => shardOf(runs, k, 5));
    expect(
      shards
        .flat()
        .map((r) => r.index)
        .sort((a, b) => a - b),
    ).toEqual(runs.map((r) => r.index));
    expect(shards.map((s) => s.length)).toEqual([3, 3, 2, 2, 2]);
    expect(parseShard('2/5')).toEqual({ k: 2, n: 5 });
    expect(() => parseShard('6/5')).toThrow(/1 <= K <= N/);
    expect(() => parseShard('x')).toThrow(/K\/N/);
  });
});

describe('validateSpec: limits, checked before anything is expanded', () => {
  const deep = (depth: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = [v];
    return v;
  };

  it.each([
    // 2 instances x 2 solvers: at most 25,000 seeds.
    [
      { ...base, seeds: { count: 10_000_000 } },
      /^seeds\.count: 10000000 seeds x 2 instance\(s\) x 2 solver\(s\) = 40000000 runs; an experiment has at most 100000 runs \(at most 25000 seeds here\)/,
    ],
    [
      { ...base, seeds: Array.from({ length: 25_001 }, (_, i) => i) },
      /^seeds: 25001 seeds x 2 instance\(s\) x 2 solver\(s\) = 100004 runs; an experiment has at most 100000 runs/,
    ],
    [{ ...base, instances: [{ name: 'x', n: 100_000_000 }] }, /^instances\[0\]\.n: must be at most 1000000, got 100000000/],
    [{ ...base, instances: [{ name: 'x', n: 1e300 }] }, /^instances\[0\]\.n: must be a safe integer/],
    // Seeds past 2^53 cannot be represented: refused with the field named, never run.
    [{ ...base, seeds: [1, 2 ** 53] }, /^seeds\[1\]: must be a safe integer \(from -\(2\^53 - 1\) to 2\^53 - 1 = 9007199254740991\), got 9007199254740992/],
    [
      { ...base, seeds: { count: 10, start: Number.MAX_SAFE_INTEGER - 3 } },
      /^seeds\.start: the last seed, start \+ count - 1 = 9007199254740997, must be at most 2\^53 - 1/,
    ],
    // start + count - 1 rounds to 2^53 - 1 in floating point; the last seed is 2^53.
    [
      { ...base, seeds: { count: 2, start: Number.MAX_SAFE_INTEGER } },
      /^seeds\.start: the last seed, start \+ count - 1 = 9007199254740992, must be at most 2\^53 - 1/,
    ],
    [
      { ...base, seeds: { count: 4, start: Number.MAX_SAFE_INTEGER - 1 } },
      /^seeds\.start: the last seed, start \+ count - 1 = 9007199254740993, must be at most 2\^53 - 1/,
    ],
    [{ ...base, seeds: [-1] }, /^seeds\[0\]: must be at least 0, got -1/],
    // A deep list where a feature group belongs: a clear error, not a RangeError.
    [
      { ...base, instances: [{ name: 'x', config: { objectives: [deep(6000)] } }] },
      /^instances\[0\]\.config\.objectives\[0\]\[0\]: must be a feature index from 1 to 15, got \[/,
    ],
  ])('refuses %#', (input, message) => {
    expect(() => validateSpec(input)).toThrow(SpecError);
    expect(() => validateSpec(input)).toThrow(message);
  });

  it('accepts the largest seeds and the largest grid', () => {
    expect(() => validateSpec({ ...base, seeds: [Number.MAX_SAFE_INTEGER, 2 ** 32 + 1] })).not.toThrow();
    expect(() => validateSpec({ ...base, seeds: { count: 25_000, start: Number.MAX_SAFE_INTEGER - 24_999 } })).not.toThrow();
    expect(() => validateSpec({ ...base, seeds: { count: 1, start: Number.MAX_SAFE_INTEGER } })).not.toThrow();
  });

  it('gives seeds that differ only above bit 32 different run ids', () => {
    const spec = validateSpec({ ...base, instances: [base.instances[0]], solvers: [base.solvers[0]], seeds: [1, 2 ** 32 + 1, 2 ** 33 + 1] });
    expect(new Set(expandGrid(spec).map((r) => r.id)).size).toBe(3);
  });
});
