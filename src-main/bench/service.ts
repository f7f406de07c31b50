/**
 * `saikoro bench service`: a competition server's throughput per entrant (docs/competition.md,
 * "Running it as a service"). A competition file at N = 840 (track so, one secret instance) is
 * served on 127.0.0.1 as `saikoro serve --competition` serves it (the web server, the
 * competition's endpoints and service, its log and folds into the file: everything an answer
 * costs there), and remote entrants, each a Node process of its own, play random search in
 * batches of 100 until their budget is used: over a WebSocket (one entrant that waits for each
 * answer before it draws the next batch, one that keeps its next batch in flight, then two at
 * once) and over one POST per batch (keep-alive). Evaluations per second per entrant, from its
 * hello to its stop.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createCompetitionFile, enterRemote, issueEntrantToken } from '../app/competition.ts';
import { diceHvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import { Project } from '../project/store.ts';
import { startAppServer } from '../server/app-server.ts';
import type { BenchSuite } from './suite.ts';
import { trackConfig } from '../../src-shared/problems/dice/config.ts';
import { runInProcess } from '../app/launcher.ts';

const N = 840;
const BATCH = 100;

/**
 * An entrant: random sequences from a seeded xorshift, written as bytes (about 5 µs a sequence
 * of N = 840 here, where adding characters to a string took 20 µs: the entrant waits for each
 * answer before it draws the next batch, so its drawing counts in the figure), BATCH per request, until
 * the answer says stop. argv: ws|post, URL of the problem, token, the
 * ws module's path. Prints {"evaluations", "ms"} from its hello to its stop.
 */
const ENTRANT = `
const [mode, url, token, wsPath] = process.argv.slice(1);
let n = 0, state = 1, evaluations = 0, started = 0;
let digits = null;
const batch = () => { const b = new Array(${BATCH}); let s = state; for (let k = 0; k < ${BATCH}; k++) { for (let i = 0; i < n; i++) { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; digits[i] = 49 + Math.floor(((s >>> 0) * 6) / 4294967296); } b[k] = digits.toString('latin1', 0, n); } state = s; return JSON.stringify({ evaluate: b }); };
const hello = (h) => { n = h.problem.n; digits = Buffer.alloc(n); state = (h.seed * 2654435761) >>> 0 || 1; started = performance.now(); };
const done = () => { process.stdout.write(JSON.stringify({ evaluations, ms: performance.now() - started })); process.exit(0); };
const answer = (a) => { if (a.error) { process.stderr.write(a.error + '\\n'); process.exit(1); } evaluations += a.results.length; return Boolean(a.stop); };
if (mode === 'ws' || mode === 'ws-ahead') {
  const WebSocket = require(wsPath);
  const ws = new WebSocket(url, { headers: { Authorization: 'Bearer ' + token }, perMessageDeflate: false });
  const ahead = mode === 'ws-ahead' ? 2 : 1;
  ws.on('message', (data) => { const m = JSON.parse(data); if (m.protocol) { hello(m); for (let k = 0; k < ahead; k++) ws.send(batch()); return; } if (answer(m)) return done(); ws.send(batch()); });
  ws.on('error', (e) => { process.stderr.write(String(e) + '\\n'); process.exit(1); });
} else {
  const http = require('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const call = (method, body) => new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' } }, (res) => { let t = ''; res.setEncoding('utf8'); res.on('data', (c) => (t += c)); res.on('end', () => resolve(JSON.parse(t))); });
    req.on('error', reject);
    req.end(body);
  });
  (async () => { hello(await call('GET')); for (;;) { if (answer(await call('POST', batch()))) return done(); } })();
}
`;

interface Played {
  evaluations: number;
  ms: number;
}

function play(mode: 'ws' | 'ws-ahead' | 'post', url: string, token: string): Promise<Played> {
  const wsPath = createRequire(import.meta.url).resolve('ws');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ENTRANT, mode, url, token, wsPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Played) : reject(new Error(`bench service: an entrant failed (${code}): ${err}`))));
  });
}

/** The same random search in this process, no network and no server: what the machine gives now (the reference of the rows). */
async function inProcess(evaluations: number): Promise<number> {
  const start = performance.now();
  const outcome = await runInProcess({
    request: { kind: 'dice', solver: 'random', params: { batch: BATCH }, seed: 1, config: trackConfig('so', N), termination: { maxEvaluations: evaluations } },
  });
  if (outcome.status !== 'done' || outcome.result === null) throw new Error(`bench service: the in-process run ${outcome.status}: ${outcome.reason}`);
  return (outcome.result.evaluations * 1000) / (performance.now() - start);
}

export interface ServiceBenchFigures {
  n: number;
  batch: number;
  /** Evaluations of each entrant's run. */
  evaluations: number;
  /** Evaluations per second of each entrant, best of the repeats. */
  websocketOne: number;
  /** One entrant that keeps a second batch in flight (it sends the next before the answer comes): the server never waits for it. */
  websocketAhead: number;
  websocketTwo: number[];
  postOne: number;
  /** The built-in random search in process, measured between them: the machine's pace under its load then. */
  inProcess: number;
  loadAverage: number[];
}

export const serviceBench: BenchSuite = {
  async run(context) {
    const evaluations = context.quick ? 5_000 : 100_000;
    const repeats = context.quick ? 1 : 3;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-bench-service-'));
    try {
      fs.mkdirSync(path.join(dir, 'renderer'));
      fs.writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>bench</title>');
      const file = path.join(dir, 'bench.saikoro');
      // Every run of every mode has its own entrant: entrants 3 per repeat.
      const names = Array.from({ length: repeats }, (_, r) => [`ws-${r}`, `ws2a-${r}`, `ws2b-${r}`, `post-${r}`, `ahead-${r}`]).flat();
      await createCompetitionFile(
        file,
        { tracks: ['so'], ns: [N], instances: 1, withPublic: false, evaluations, seeds: 1 },
        'saikoro-bench-service-secret',
        async (c) => diceHvNormalisation(c),
      );
      const tokens = new Map<string, string>();
      const project = Project.open(file);
      try {
        for (const name of names) {
          enterRemote(project, name);
          tokens.set(name, issueEntrantToken(project, name).token);
        }
      } finally {
        project.close();
      }
      const server = await startAppServer({
        port: 0,
        rendererDir: path.join(dir, 'renderer'),
        build: 'never',
        workspace: dir,
        parallelism: 1,
        competition: { file },
      });
      const url = (mode: 'ws' | 'post') => `${mode === 'ws' ? server.origin.replace(/^http/, 'ws') : server.origin}api/competition/so-n${N}-i1`;
      const rate = (p: Played) => (p.evaluations * 1000) / p.ms;
      const one: number[] = [];
      const two: number[][] = [];
      const post: number[] = [];
      const ahead: number[] = [];
      const local: number[] = [];
      try {
        for (let r = 0; r < repeats; r++) {
          context.progress(`service: the same random search in process, for reference (${r + 1}/${repeats})`);
          local.push(await inProcess(evaluations));
          context.progress(`service: one entrant over a WebSocket, ${evaluations} evaluations (${r + 1}/${repeats})`);
          one.push(rate(await play('ws', url('ws'), tokens.get(`ws-${r}`)!)));
          context.progress(`service: one entrant over a WebSocket, its next batch sent before each answer (${r + 1}/${repeats})`);
          ahead.push(rate(await play('ws-ahead', url('ws'), tokens.get(`ahead-${r}`)!)));
          context.progress(`service: two entrants at once over WebSockets (${r + 1}/${repeats})`);
          two.push((await Promise.all([play('ws', url('ws'), tokens.get(`ws2a-${r}`)!), play('ws', url('ws'), tokens.get(`ws2b-${r}`)!)])).map(rate));
          context.progress(`service: one entrant, one POST per batch (${r + 1}/${repeats})`);
          post.push(rate(await play('post', url('post'), tokens.get(`post-${r}`)!)));
        }
      } finally {
        await server.close();
      }
      const bestTwo = two.reduce((a, b) => (Math.min(...b) > Math.min(...a) ? b : a));
      const figures: ServiceBenchFigures = {
        n: N,
        batch: BATCH,
        evaluations,
        websocketOne: Math.round(Math.max(...one)),
        websocketAhead: Math.round(Math.max(...ahead)),
        websocketTwo: bestTwo.map(Math.round),
        postOne: Math.round(Math.max(...post)),
        inProcess: Math.round(Math.max(...local)),
        loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
      };
      return {
        tables: [
          {
            title: `Competition server at N = ${N}, batches of ${BATCH} (random search, ${evaluations.toLocaleString('en-US')} evaluations per entrant, best of ${repeats})`,
            columns: ['entrants, transport', 'evaluations/s per entrant', 'µs per evaluation'],
            rows: [
              ['1, WebSocket', figures.websocketOne, Math.round((1e6 / figures.websocketOne) * 100) / 100],
              ['1, WebSocket, next batch sent before the answer', figures.websocketAhead, Math.round((1e6 / figures.websocketAhead) * 100) / 100],
              [
                '2 at once, WebSocket',
                figures.websocketTwo.map((f) => f.toLocaleString('en-US')).join(' and '),
                Math.round((1e6 / Math.min(...figures.websocketTwo)) * 100) / 100,
              ],
              ['1, one POST per batch (keep-alive)', figures.postOne, Math.round((1e6 / figures.postOne) * 100) / 100],
              ['reference: built-in random in process, no server', figures.inProcess, Math.round((1e6 / figures.inProcess) * 100) / 100],
            ],
            notes: [
              `Loopback (127.0.0.1); each entrant a Node process of its own; the server as saikoro serve --competition runs it (every answer in the server's log before it leaves, folded into the file every 2 s). Load average at the end: ${figures.loadAverage.join(', ')}.`,
            ],
          },
        ],
        json: figures,
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
