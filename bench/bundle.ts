import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { report, type BenchRow } from './lib/report.ts';

/**
 * Initial JavaScript the browser must download before the first paint: the entry module and every chunk
 * index.html preloads, gzipped. Baseline: a React 19 "hello" page built by the same Vite in the same run,
 * i.e. the floor any React app pays.
 */

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function initialJsGzipBytes(outDir: string): Promise<number> {
  const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
  const assets = new Set<string>();
  for (const match of html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)) assets.add(match[1]!);
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) assets.add(match[1]!);
  let total = 0;
  for (const asset of assets) {
    const file = await readFile(path.join(outDir, asset.replace(/^\//, '')));
    total += gzipSync(file, { level: 9 }).length;
  }
  return total;
}

async function buildInto(root: string, outDir: string): Promise<void> {
  await build({
    root,
    configFile: false,
    plugins: [react()],
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true, sourcemap: false },
    define: {
      'import.meta.env.VITE_SUPABASE_URL': JSON.stringify('http://127.0.0.1:54321'),
      'import.meta.env.VITE_SUPABASE_ANON_KEY': JSON.stringify('bench'),
    },
  });
}

/** Part of `npm run bench -- --quick`: a build and a gzip count, seconds. */
export const inQuickRun = true;

export async function run(): Promise<BenchRow[]> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'mediateca-bundle-'));
  // The baseline app must resolve react from the project's node_modules, so it lives inside the project.
  const baselineRoot = path.join(projectRoot, 'node_modules', '.cache', 'bench-react-baseline');
  try {
    await mkdir(baselineRoot, { recursive: true });
    await writeFile(
      path.join(baselineRoot, 'index.html'),
      '<!doctype html><html><body><div id="root"></div><script type="module" src="/main.tsx"></script></body></html>',
    );
    await writeFile(
      path.join(baselineRoot, 'main.tsx'),
      "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')!).render(<h1>Hola</h1>);\n",
    );
    await buildInto(projectRoot, path.join(scratch, 'app'));
    await buildInto(baselineRoot, path.join(scratch, 'baseline'));
    const app = await initialJsGzipBytes(path.join(scratch, 'app'));
    const baseline = await initialJsGzipBytes(path.join(scratch, 'baseline'));
    return [
      {
        metric: 'initial JS of the built app (gzip)',
        unit: 'KB',
        value: app / 1024,
        baseline: baseline / 1024,
        baselineLabel: 'React hello page',
        goal: '≤ 160 KB',
        higherIsBetter: false,
      },
    ];
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await rm(baselineRoot, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('bundle', await run());
}
