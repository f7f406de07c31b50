// Iterative walks over game trees: size, depth, leaves, structural equality.
import type { GameTree } from './types.ts';

/** Number of nodes of the tree (a shared subtree counts once per occurrence, as a tree). */
export function countNodes(tree: GameTree): number {
  let count = 0;
  const stack: GameTree[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    count++;
    const kids = node.children;
    for (let i = 0; i < kids.length; i++) stack.push(kids[i]);
  }
  return count;
}

/** Number of leaves of the tree. */
export function countLeaves(tree: GameTree): number {
  let count = 0;
  const stack: GameTree[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const kids = node.children;
    if (kids.length === 0) count++;
    for (let i = 0; i < kids.length; i++) stack.push(kids[i]);
  }
  return count;
}

/** Depth of the tree: 0 for a single leaf. */
export function treeDepth(tree: GameTree): number {
  let max = 0;
  const nodes: GameTree[] = [tree];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const d = depths.pop()!;
    if (d > max) max = d;
    for (const child of node.children) {
      nodes.push(child);
      depths.push(d + 1);
    }
  }
  return max;
}

/** Structural equality (positions compared with ===), iteratively. */
export function treesEqual(a: GameTree, b: GameTree): boolean {
  const stack: Array<[GameTree, GameTree]> = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (x.position !== y.position || x.children.length !== y.children.length) return false;
    for (let i = 0; i < x.children.length; i++) stack.push([x.children[i], y.children[i]]);
  }
  return true;
}

/** Builds a chain `(0 (1 (2 ... (depth))))` of the given depth: handy for depth tests. */
export function chainTree(depth: number): GameTree {
  let node: GameTree = { position: depth, children: [] };
  for (let d = depth - 1; d >= 0; d--) node = { position: d, children: [node] };
  return node;
}
