import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `node --import tsx scripts/slowest-tests.ts [N] [report.json]`: the N (10 unless told) slowest test files of
 * the last `npm test` (or `npx vitest run …`), from the JSON report vitest.config.ts writes, as a Markdown table
 * for docs/testing.md. A file's time counts its hooks (a stack started in beforeAll) and its imports.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface ReportFile {
  name: string;
  status: string;
  startTime: number;
  endTime: number;
  assertionResults: unknown[];
  project?: string;
  duration?: number;
  collectDuration?: number;
}

export function slowest(files: ReportFile[], count: number) {
  return files
    .map((file) => ({
      file: path.relative(root, file.name),
      project: file.project ?? '?',
      tests: file.assertionResults.length,
      status: file.status,
      // Reports of other reporters' making have no duration: their tests' span is what is left.
      seconds: ((file.duration ?? file.endTime - file.startTime) + (file.collectDuration ?? 0)) / 1000,
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
}

async function main() {
  const count = Number(process.argv[2] ?? 10);
  const reportPath = path.resolve(process.argv[3] ?? path.join(root, 'test-results/vitest.json'));
  const report = JSON.parse(await readFile(reportPath, 'utf8')) as { startTime: number; testResults: ReportFile[] };
  const rows = slowest(report.testResults, count);
  const total = report.testResults.reduce(
    (sum, file) => sum + (file.duration ?? file.endTime - file.startTime) + (file.collectDuration ?? 0),
    0,
  );
  console.log(
    `${report.testResults.length} files, ${(total / 1000).toFixed(0)} s of file time in all (${reportPath})\n`,
  );
  console.log('| file | project | tests | s |');
  console.log('| ---- | ------- | ----: | -: |');
  for (const row of rows) {
    const failed = row.status === 'passed' ? '' : ` (${row.status})`;
    console.log(`| \`${row.file}\`${failed} | ${row.project} | ${row.tests} | ${row.seconds.toFixed(0)} |`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
