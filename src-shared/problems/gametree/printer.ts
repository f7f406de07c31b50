// Tree -> S-expression text, iteratively (explicit stack), so deep trees print without
// stack overflow. parseTree(printTree(t)) reproduces t.
import { atomText, type GameTree } from './types.ts';

export interface PrintOptions {
  /** Indent each child on its own line by this many spaces per level (0: one line). */
  indent?: number;
}

export function printTree(tree: GameTree, options: PrintOptions = {}): string {
  const indent = options.indent ?? 0;
  const out: string[] = [];
  // Frames: a node and the index of the next child to print.
  const nodes: GameTree[] = [tree];
  const next: number[] = [0];
  out.push('(', atomText(tree.position));
  while (nodes.length > 0) {
    const top = nodes.length - 1;
    const node = nodes[top];
    const i = next[top];
    if (i < node.children.length) {
      next[top] = i + 1;
      const child = node.children[i];
      if (indent > 0) out.push('\n', ' '.repeat(indent * nodes.length));
      else out.push(' ');
      out.push('(', atomText(child.position));
      nodes.push(child);
      next.push(0);
    } else {
      out.push(')');
      nodes.pop();
      next.pop();
    }
  }
  return out.join('');
}
