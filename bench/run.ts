import { readdir, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatTable, machineDescription, isQuick, type BenchRow } from './lib/report.ts';

/**
 * `npm run bench [-- --quick]`: runs every benchmark in bench/ (each module exports `run()` returning
 * rows with a baseline measured in the same run) and prints one table plus bench/results/all.json.
 * A bare --quick runs only the benchmarks that export `inQuickRun = true`, the ones whose short variant
 * takes well under a minute, so the whole run fits in 3; any benchmark named runs in its --quick variant.
 * Named ones only with their names, e.g. `npm run bench -- load --minutes 2 --faults` or
 * `npm run bench -- soak`.
 * Ctrl-C stops the benchmark under way; each benchmark stops the stacks it started in `finally`.
 */

const benchDir = path.dirname(fileURLToPath(import.meta.url));

interface BenchModule {
  run: () => Promise<BenchRow[]>;
  /** true: short enough with --quick to be part of a bare `npm run bench -- --quick`. */
  inQuickRun?: boolean;
}

async function main() {
  const quick = isQuick();
  if (quick) process.env.BENCH_QUICK = '1';
  const args = process.argv.slice(2);
  // Names of benchmarks to run; `--files N`, `--minutes N` (the load and soak benchmarks') and `--rounds N` (the
  // soak's) take a value that is not one.
  const only = args.filter(
    (arg, index) => !arg.startsWith('--') && !['--files', '--minutes', '--rounds'].includes(args[index - 1]!),
  );
  if (args.includes('--files')) process.env.BENCH_FILES = args[args.indexOf('--files') + 1];
  const files = (await readdir(benchDir))
    .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
    .map((file) => file.replace(/\.ts$/, ''))
    .filter((name) => only.length === 0 || only.includes(name))
    .sort();

  let interrupted = false;
  process.on('SIGINT', () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.log(
      '\nInterrupted: finishing the benchmark under way so its stack shuts down cleanly (Ctrl-C again to force).',
    );
  });

  const rows: Array<BenchRow & { bench: string }> = [];
  const failures: string[] = [];
  for (const [index, name] of files.entries()) {
    if (interrupted) break;
    console.log(`[${index + 1}/${files.length}] ${name}${quick ? ' (quick)' : ''}…`);
    const startedAt = Date.now();
    try {
      const module = (await import(pathToFileURL(path.join(benchDir, `${name}.ts`)).href)) as BenchModule;
      if (quick && only.length === 0 && module.inQuickRun !== true) {
        console.log(`[${index + 1}/${files.length}] ${name} left out of --quick (name it to run it)`);
        continue;
      }
      const result = await module.run();
      rows.push(...result.map((row) => ({ ...row, bench: name })));
      console.log(`[${index + 1}/${files.length}] ${name} done in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    } catch (error) {
      // API errors (PostgREST's, Auth's) arrive as plain objects: show their fields, not '[object Object]'.
      const described = error instanceof Error ? (error.stack ?? error.message) : JSON.stringify(error);
      failures.push(`${name}: ${error instanceof Error ? error.message : described}`);
      console.error(`[${index + 1}/${files.length}] ${name} failed: ${described}`);
    }
  }

  const summary = {
    startedAt: new Date().toISOString(),
    quick,
    machine: machineDescription(),
    rows,
    failures,
  };
  await mkdir(path.join(benchDir, 'results'), { recursive: true });
  await writeFile(path.join(benchDir, 'results', 'all.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`\nMediateca benchmarks${quick ? ' (quick)' : ''} — ${summary.machine}\n`);
  console.log(formatTable(rows));
  if (failures.length > 0) {
    console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
    process.exitCode = 1;
  }
  if (interrupted) process.exitCode = 130;
}

await main();
