import type { CommandHelp } from '../command.ts';

/** A search stops after this many nodes unless --max-nodes says otherwise. */
export const DEFAULT_MAX_NODES = 100_000_000;

/** `saikoro minimax --help`, and the options it parses (see CommandHelp). */
export const minimaxHelp = {
  usage: [
    'Usage: saikoro minimax (--file TREE | --nim N [--rule last-wins|last-loses])',
    '                       [--eval constant:V | --eval table:FILE | --eval nim:RULE]',
    '                       [--method plain|alphabeta|memo] [--max-nodes K] [--json]',
    '',
    "Minimax over a game tree (the notes on CL drill 8.2.6). Values are A's win probability;",
    'estimateMyTurn is the value when A moves first at the root (max there), estimateHisTurn',
    'when B does (min there). Prints both, the principal variation and the nodes visited.',
    '',
    'Input (exactly one):',
    '  --file TREE      a tree (position child ...), leaf (position), ; comments. "-" reads stdin',
    "  --nim N          the notes' nim(N): N stones, a move takes 1, 2 or 3 (0 <= N <= 10^7)",
    '  --rule RULE      nim: last-wins (default: whoever takes the last stone wins) or last-loses',
    '',
    'Options:',
    '  --eval SPEC      leaf evaluation f(position):',
    '                     constant:V   every leaf is worth V (the notes use constant:1)',
    '                     table:FILE   JSON {"pos": v, ...} or an alist ((pos . v) ...)',
    '                     nim:RULE     0 stones: 0 or 1 by whose turn it is and the rule',
    '                   default: nim:RULE for --nim, constant:1 for --file',
    "  --method M       plain (the notes' recursion), alphabeta, memo (memoised over",
    '                   (position, side to move): a DAG). Default plain for --file, memo for --nim.',
    '                   memo assumes equal positions head equal subtrees (true of nim).',
    `  --max-nodes K    stop a search after K nodes, exit 1 (default ${DEFAULT_MAX_NODES.toExponential().replace('e+', 'e')})`,
    '  --json           print {"estimateMyTurn", "estimateHisTurn", "principalVariation":',
    '                   {"myTurn", "hisTurn"}, "nodesVisited": {"myTurn", "hisTurn"}}',
    '',
    'Examples:',
    '  saikoro minimax --nim 10 --eval constant:1 --method plain   # the notes: both 1',
    '  saikoro minimax --nim 1000000                                # memo: 0 (1000000 mod 4 = 0)',
    '  saikoro minimax --file game.sexp --eval table:leaves.json --method alphabeta',
    '',
    'Exit status: 0 success, 1 bad tree, table or search limit, 2 usage error.',
  ].join('\n'),
  options: {
    file: { type: 'string' },
    nim: { type: 'string' },
    rule: { type: 'string' },
    eval: { type: 'string' },
    method: { type: 'string' },
    'max-nodes': { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: false,
} satisfies CommandHelp;
