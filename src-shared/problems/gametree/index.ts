// The game-tree (minimax) lab: parser, printer, evaluation functions, searches, nim.
export * from './types.ts';
export * from './syntax-error.ts';
export * from './sexpr.ts';
export * from './parser.ts';
export * from './printer.ts';
export * from './tree.ts';
export * from './evaluation.ts';
export * from './game.ts';
export * from './trace.ts';
export * from './result.ts';
export * from './minimax.ts';
export * from './alphabeta.ts';
export * from './memo.ts';
export * from './search.ts';
export * from './nim.ts';
export * from './random-tree.ts';
export * from './view-model.ts';
