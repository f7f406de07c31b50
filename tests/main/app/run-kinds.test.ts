// Each kind of run has one app descriptor and one shared kind, both mapped over the kind names:
// leaving a piece out does not compile (the @ts-expect-error lines fail `tsc -p
// tsconfig.tests.json` the day they compile), and both maps hold exactly the kinds there are.
import { describe, expect, it } from 'vitest';
import { RUN_KIND_DESCRIPTORS, type RunKindDescriptor } from '../../../src-main/app/run-kinds.ts';
import { RUN_KIND_NAMES, type RunKind, type RunKindName } from '../../../src-shared/runtime/kinds/index.ts';

describe('one descriptor per kind of run', () => {
  it('the app descriptors cover exactly the kinds of the runtime', () => {
    expect(Object.keys(RUN_KIND_DESCRIPTORS).sort()).toEqual([...RUN_KIND_NAMES].sort());
  });

  it('a kind without its descriptor, or a descriptor without a piece, does not compile', () => {
    // @ts-expect-error: nqueens has no descriptor
    const missingKind: { [K in RunKindName]: RunKindDescriptor<K> } = { dice: RUN_KIND_DESCRIPTORS.dice };
    // @ts-expect-error: no save
    const missingPiece: RunKindDescriptor<'nqueens'> = { plan: RUN_KIND_DESCRIPTORS.nqueens.plan, keepResult: () => true };
    // @ts-expect-error: a shared kind without its progress points
    const missingProgress: Pick<RunKind<'nqueens'>, 'name' | 'progressPoint' | 'finalPoints'> = { name: 'nqueens', finalPoints: () => null };
    expect([missingKind, missingPiece, missingProgress].every((x) => typeof x === 'object')).toBe(true);
  });

  it('the dice descriptor keeps every result, the N-Queens one not a board above a million rows', () => {
    const nq = (n: number) => ({ n }) as Parameters<RunKindDescriptor<'nqueens'>['keepResult']>[0];
    expect(RUN_KIND_DESCRIPTORS.nqueens.keepResult(nq(1_000_000))).toBe(true);
    expect(RUN_KIND_DESCRIPTORS.nqueens.keepResult(nq(1_000_001))).toBe(false);
  });
});
