import { randomFillSync } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { isQuick, report, type BenchRow } from './lib/report.ts';
import { clientFor, progress, withStack } from './lib/harness.ts';

/**
 * Memory of 'Descargar todo (ZIP)': a public collection of ~2 GB of originals is downloaded through the
 * collection-zip function while the resident memory of the functions runtime (the Deno process) and of the
 * stack's own Node process (gateway, Storage) is sampled every 50 ms. The baseline is each process at rest
 * just before the download. Goal: the server stays under 256 MB however large the archive.
 */

const FILES = 3;
const MB = 1024 * 1024;

async function randomFile(dir: string, bytes: number): Promise<string> {
  const file = path.join(dir, 'original.bin');
  const handle = await open(file, 'w');
  const block = Buffer.alloc(8 * MB);
  for (let written = 0; written < bytes; written += block.length) {
    randomFillSync(block);
    await handle.write(block, 0, Math.min(block.length, bytes - written));
  }
  await handle.close();
  return file;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** The Deno process the stack started for edge functions (a child of this process). */
async function functionsRuntimePid(): Promise<number> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      const ppid = Number(/PPid:\s+(\d+)/.exec(await readFile(`/proc/${entry}/status`, 'utf8'))![1]);
      if (ppid === process.pid && cmdline.includes('functions-router')) return Number(entry);
    } catch {
      // The process ended while being read.
    }
  }
  throw new Error('functions runtime process not found');
}

export async function run(): Promise<BenchRow[]> {
  const fileBytes = isQuick() ? 64 * MB : 700 * MB;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'mediateca-zip-bench-'));
  try {
    return await withStack(async (stack) => {
      const service = clientFor(stack, stack.serviceRoleKey);
      progress('collection-zip', `writing ${fileBytes / MB} MiB of random bytes`);
      const original = await randomFile(scratch, fileBytes);

      const { data: collection, error } = await service
        .from('collections')
        .insert({ name: 'Benchmark ZIP', is_public: true })
        .select('id')
        .single();
      if (error) throw error;
      for (let i = 0; i < FILES; i++) {
        const id = crypto.randomUUID();
        const objectPath = `${id}/original.bin`;
        progress('collection-zip', `uploading original ${i + 1}/${FILES}`);
        const upload = await fetch(`${stack.apiUrl}/storage/v1/object/media/${objectPath}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${stack.serviceRoleKey}`, 'content-type': 'application/octet-stream' },
          body: Readable.toWeb(createReadStream(original)) as ReadableStream,
          duplex: 'half',
        } as RequestInit);
        if (!upload.ok) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
        const inserted = await service.from('files').insert({
          id,
          file_name: 'original.bin',
          object_path: objectPath,
          original_file_name: `original-${i + 1}.bin`,
          name_es: `Original ${i + 1}`,
          name_en: `Original ${i + 1}`,
          size: fileBytes,
          extension: 'bin',
          processing: false,
          published: true,
        });
        if (inserted.error) throw inserted.error;
        const linked = await service.from('collection_files').insert({ collection_id: collection.id, file_id: id });
        if (linked.error) throw linked.error;
      }

      const deno = await functionsRuntimePid();
      // Wake the function once (first request compiles it) so the baseline is the runtime at rest.
      await (await fetch(`${stack.apiUrl}/functions/v1/collection-zip/${crypto.randomUUID()}`)).text();
      const denoAtRest = await rssMb(deno);
      const stackAtRest = await rssMb(process.pid);
      let denoPeak = denoAtRest;
      let stackPeak = stackAtRest;
      const sampler = setInterval(() => {
        void rssMb(deno).then((mb) => (denoPeak = Math.max(denoPeak, mb)));
        void rssMb(process.pid).then((mb) => (stackPeak = Math.max(stackPeak, mb)));
      }, 50);

      progress('collection-zip', `downloading the ZIP of ${((FILES * fileBytes) / 2 ** 30).toFixed(2)} GiB`);
      const started = performance.now();
      const response = await fetch(`${stack.apiUrl}/functions/v1/collection-zip/${collection.id}`);
      if (!response.ok || !response.body) throw new Error(`zip: ${response.status}`);
      let received = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) received += chunk.length;
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const expected = Number(response.headers.get('content-length'));
      if (received !== expected || received < FILES * fileBytes) {
        throw new Error(`ZIP has ${received} bytes, announced ${expected}, originals ${FILES * fileBytes}`);
      }
      progress('collection-zip', `${(received / MB).toFixed(0)} MiB in ${seconds.toFixed(1)} s`);

      return (
        await report('collection-zip', [
          {
            metric: `ZIP of ${((FILES * fileBytes) / 2 ** 30).toFixed(1)} GiB: peak RSS of the functions runtime`,
            unit: 'MB',
            value: denoPeak,
            baseline: denoAtRest,
            baselineLabel: 'same process at rest',
            goal: '< 256 MB',
            higherIsBetter: false,
          },
          {
            metric: `ZIP of ${((FILES * fileBytes) / 2 ** 30).toFixed(1)} GiB: peak RSS of the stack's Node process (gateway, Storage, this benchmark)`,
            unit: 'MB',
            value: stackPeak,
            baseline: stackAtRest,
            baselineLabel: 'same process at rest',
            goal: 'grows < 256 MB',
            higherIsBetter: false,
          },
          {
            metric: 'ZIP download throughput',
            unit: 'MB/s',
            value: received / 1e6 / seconds,
            baseline: null,
            baselineLabel: '',
            goal: 'streams (no goal)',
            higherIsBetter: true,
          },
        ])
      ).rows;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
