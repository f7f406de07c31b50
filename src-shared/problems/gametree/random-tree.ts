// Seeded random game trees with a value table, for tests and demonstrations.
import { Random } from '../../random.ts';
import type { GameTree } from './types.ts';

export interface RandomTreeOptions {
  seed: number;
  /** Maximum depth (default 6). */
  maxDepth?: number;
  /** Children per internal node are drawn from 1..maxChildren (default 4). */
  maxChildren?: number;
  /** Chance (in percent) that a node above maxDepth is a leaf anyway (default 20). */
  leafPercent?: number;
  /** Leaf values are k / valueSteps for k in 0..valueSteps (default 10: many ties). */
  valueSteps?: number;
}

export interface RandomTree {
  tree: GameTree;
  /** Leaf values by position text; positions are distinct numbers 0, 1, 2, ... (in order of creation). */
  values: Map<string, number>;
}

interface MutableTree {
  position: number;
  children: MutableTree[];
}

export function randomTree(options: RandomTreeOptions): RandomTree {
  const { seed, maxDepth = 6, maxChildren = 4, leafPercent = 20, valueSteps = 10 } = options;
  const rng = Random.fromSeed(seed);
  const values = new Map<string, number>();
  let nextId = 0;
  const root: MutableTree = { position: nextId++, children: [] };
  const stack: Array<[MutableTree, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    const leaf = depth >= maxDepth || (depth > 0 && rng.int(1, 100) <= leafPercent);
    if (leaf) {
      values.set(String(node.position), rng.int(0, valueSteps) / valueSteps);
      continue;
    }
    const k = rng.int(1, maxChildren);
    for (let i = 0; i < k; i++) node.children.push({ position: nextId++, children: [] });
    for (let i = k - 1; i >= 0; i--) stack.push([node.children[i], depth + 1]);
  }
  return { tree: root, values };
}
