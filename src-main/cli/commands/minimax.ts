// saikoro minimax: the notes' estimate-my-turn / estimate-his-turn on a tree file or nim(N).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError, numberOption, parseCommandArgs, readAll, UsageError, writeLine, type CliIo, type Command } from '../command.ts';
import { DEFAULT_MAX_NODES, minimaxHelp } from './minimax.help.ts';
import {
  constantEval,
  EvaluationError,
  GameCycleError,
  METHODS,
  NIM_RULES,
  nimGame,
  nimRuleEval,
  nimTree,
  nimTreeSize,
  parseEvalTable,
  parseTree,
  search,
  SearchLimitError,
  tableEval,
  treeSource,
  TreeSyntaxError,
  type Atom,
  type EvalFn,
  type GameSource,
  type Method,
  type NimRule,
  type SearchResult,
} from '../../../src-shared/problems/gametree/index.ts';

/** nim(N) for the memoised search needs ~30 bytes per stone; 10^7 stones is ~300 MB. */
const MAX_NIM = 10_000_000;
/** Human output shows at most this many positions of a principal variation. */
const PV_SHOWN = 40;

/** The --json shape. */
export interface MinimaxJson {
  estimateMyTurn: number;
  estimateHisTurn: number;
  /** Positions from the root: myTurn when A moves first, hisTurn when B does. */
  principalVariation: { myTurn: Atom[]; hisTurn: Atom[] };
  nodesVisited: { myTurn: number; hisTurn: number };
}

export const minimaxCommand: Command = {
  name: 'minimax',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, minimaxHelp);
    if ((values.file === undefined) === (values.nim === undefined)) throw new UsageError('give exactly one of --file TREE and --nim N');
    if (values.rule !== undefined && values.nim === undefined) throw new UsageError('--rule applies to --nim only (for a tree file use --eval nim:RULE)');
    const rule = parseRule(values.rule ?? 'last-wins', '--rule');
    if (values.rule !== undefined && values.eval?.startsWith('nim:') && values.eval !== `nim:${values.rule}`)
      throw new UsageError(`--rule ${values.rule} contradicts --eval ${values.eval}: give only one of them`);
    const method = parseMethod(values.method ?? (values.nim !== undefined ? 'memo' : 'plain'));
    const maxNodes = numberOption('max-nodes', values['max-nodes'], DEFAULT_MAX_NODES, { integer: true, min: 1 });
    const nim = values.nim === undefined ? undefined : numberOption('nim', values.nim, 0, { integer: true, min: 0, max: MAX_NIM });

    const f = await loadEval(values.eval ?? (nim !== undefined ? `nim:${rule}` : 'constant:1'), io);

    let my: SearchResult;
    let his: SearchResult;
    if (nim !== undefined) {
      if (method === 'plain' && nimTreeSize(nim) > maxNodes) {
        throw new InputError(
          `nim(${nim}) has ${nimTreeSize(nim).toExponential(2)} nodes as a tree, more than --max-nodes ${maxNodes}: use --method memo (or alphabeta), or raise --max-nodes`,
        );
      }
      const game = method === 'memo' ? nimGame(nim) : null;
      [my, his] = game ? runBoth(method, game, game.root, f, maxNodes) : runBoth(method, treeSource, nimTree(nim), f, maxNodes);
    } else {
      const tree = await loadTree(values.file!, io);
      [my, his] = runBoth(method, treeSource, tree, f, maxNodes);
      if (method === 'memo') {
        // The memo is keyed by position labels: sound for a game, not for a tree that uses one
        // label for different subtrees. Alpha-beta (exact, and at most as costly) checks it.
        const [exactMy, exactHis] = runBoth('alphabeta', treeSource, tree, f, maxNodes);
        if (exactMy.value !== my.value || exactHis.value !== his.value)
          writeLine(
            io.stderr,
            `warning: positions repeat with different subtrees, so memoising on positions is unsound for this tree: the exact values are ${exactMy.value} and ${exactHis.value} (--method plain or alphabeta)`,
          );
      }
    }

    if (values.json) {
      const out: MinimaxJson = {
        estimateMyTurn: my.value,
        estimateHisTurn: his.value,
        principalVariation: { myTurn: my.principalVariation, hisTurn: his.principalVariation },
        nodesVisited: { myTurn: my.nodesVisited, hisTurn: his.nodesVisited },
      };
      writeLine(io.stdout, JSON.stringify(out));
      return 0;
    }
    const source = nim !== undefined ? `nim(${nim}), rule ${rule}` : values.file === '-' ? 'tree from stdin' : `tree ${values.file}`;
    writeLine(io.stdout, `${source}; eval ${values.eval ?? (nim !== undefined ? `nim:${rule}` : 'constant:1')}; method ${method}`);
    for (const [label, r] of [
      ['estimateMyTurn ', my],
      ['estimateHisTurn', his],
    ] as const) {
      writeLine(io.stdout, `${label} = ${r.value}   (${r.rootSide} moves first; ${describeWork(r)})`);
      writeLine(io.stdout, `  principal variation: ${formatPv(r.principalVariation)}`);
    }
    return 0;
  },
};

function parseRule(text: string, flag: string): NimRule {
  if ((NIM_RULES as readonly string[]).includes(text)) return text as NimRule;
  throw new UsageError(`${flag}: expected ${NIM_RULES.join(' or ')}, got "${text}"`);
}

function parseMethod(text: string): Method {
  if ((METHODS as readonly string[]).includes(text)) return text as Method;
  throw new UsageError(`--method: expected one of ${METHODS.join(', ')}, got "${text}"`);
}

async function loadEval(spec: string, io: CliIo): Promise<EvalFn> {
  const colon = spec.indexOf(':');
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const arg = colon < 0 ? '' : spec.slice(colon + 1);
  switch (kind) {
    case 'constant': {
      const v = Number(arg);
      if (arg.trim() === '' || !Number.isFinite(v)) throw new UsageError(`--eval constant:V: V must be a number, got "${arg}"`);
      return constantEval(v);
    }
    case 'table': {
      if (arg === '') throw new UsageError('--eval table:FILE: the file name is missing');
      const text = await readInput(arg, io, 'evaluation table');
      try {
        return tableEval(parseEvalTable(text));
      } catch (e) {
        throw locatedError(e, arg);
      }
    }
    case 'nim':
      return nimRuleEval(parseRule(arg, '--eval nim:RULE'));
    default:
      throw new UsageError(`--eval: expected constant:V, table:FILE or nim:RULE, got "${spec}"`);
  }
}

async function loadTree(file: string, io: CliIo) {
  const text = await readInput(file, io, 'tree');
  try {
    return parseTree(text);
  } catch (e) {
    throw locatedError(e, file);
  }
}

async function readInput(file: string, io: CliIo, what: string): Promise<string> {
  if (file === '-') return readAll(io.stdin);
  try {
    return await readFile(resolve(io.cwd, file), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message;
    throw new InputError(`cannot read the ${what} file ${file}: ${why}`);
  }
}

/** Syntax errors become `file:line:column: reason`, as compilers print them. */
function locatedError(e: unknown, file: string): Error {
  const name = file === '-' ? '<stdin>' : file;
  if (e instanceof TreeSyntaxError) return new InputError(`${name}:${e.line}:${e.column}: ${e.reason}`);
  if (e instanceof EvaluationError) return new InputError(`${name}: ${e.message}`);
  return e as Error;
}

function runBoth<N>(method: Method, source: GameSource<N>, root: N, f: EvalFn, maxNodes: number): [SearchResult, SearchResult] {
  try {
    return [search(method, source, root, f, 'A', { maxNodes }), search(method, source, root, f, 'B', { maxNodes })];
  } catch (e) {
    if (e instanceof SearchLimitError) throw new InputError(`${e.message}: --max-nodes is ${maxNodes}; try --method memo or alphabeta, or raise --max-nodes`);
    if (e instanceof GameCycleError)
      throw new InputError(
        `${e.message} (memo identifies nodes by their position labels, and this tree repeats a label along one line of play: use --method plain or alphabeta)`,
      );
    if (e instanceof EvaluationError) throw new InputError(e.message);
    throw e;
  }
}

function describeWork(r: SearchResult): string {
  const parts = [`${r.nodesVisited.toLocaleString('en-US')} nodes visited`];
  if (r.method === 'alphabeta') parts.push(`${r.prunedBranches.toLocaleString('en-US')} branches pruned`);
  if (r.method === 'memo') parts.push(`${r.memoHits.toLocaleString('en-US')} memo hits`);
  return parts.join(', ');
}

function formatPv(pv: readonly Atom[]): string {
  if (pv.length <= PV_SHOWN) return pv.join(' ');
  return `${pv.slice(0, PV_SHOWN - 4).join(' ')} ... ${pv.slice(-3).join(' ')}  (${pv.length.toLocaleString('en-US')} positions; --json prints all)`;
}
