/** A benchmark suite: `saikoro bench <name>` runs it; `npm run bench` runs every default suite. */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  /** Lines printed under the table: parameters, machine, caveats. */
  notes?: string[];
}

export interface BenchReport {
  tables: BenchTable[];
  /** What `--json` prints for this suite. */
  json: unknown;
}

export interface BenchContext {
  /** Writes a progress line to stderr (never to stdout, which carries the results). */
  progress(message: string): void;
  /** --quick: smaller sizes and fewer repetitions, for smoke tests. Figures are not for the README. */
  quick: boolean;
  /** --points N: how many points a suite that draws them uses (its own default when undefined). */
  points?: number;
  /** --reference FILE: the reference evaluator (rngbias.py) the startup suite times beside rngbias. */
  reference?: string;
}

/** A suite's code; its name and summary are in registry.ts. */
export interface BenchSuite {
  run(context: BenchContext): Promise<BenchReport>;
}

/** Times `work` repeatedly until at least `minMs` have passed; returns operations per second. */
export function measureRate(work: () => number, minMs = 1000): number {
  let operations = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    operations += work();
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  return (operations * 1000) / elapsed;
}

/** Formats a rate or count with thousands separators and sensible precision. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 1 ? 2 : 4;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** A Markdown table, so figures can be pasted into the README as they are. */
export function renderTable(table: BenchTable): string {
  const cell = (v: string | number) => (typeof v === 'number' ? formatNumber(v) : v);
  const lines = [`### ${table.title}`, '', `| ${table.columns.join(' | ')} |`, `|${table.columns.map(() => '---').join('|')}|`];
  for (const row of table.rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  if (table.notes?.length) lines.push('', ...table.notes);
  return lines.join('\n') + '\n';
}

/** A suite's settings from SAIKORO_BENCH_* variables: a positive integer (or the fallback), a comma-separated list (or null). */
export function envReaders(env: NodeJS.ProcessEnv): { integer: (name: string, fallback: number) => number; list: (name: string) => string[] | null } {
  return {
    integer: (name, fallback) => {
      const raw = env[name];
      if (raw === undefined || raw === '') return fallback;
      const v = Number(raw);
      if (!Number.isSafeInteger(v) || v < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
      return v;
    },
    list: (name) => {
      const raw = env[name];
      return raw === undefined || raw.trim() === ''
        ? null
        : raw
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
    },
  };
}
