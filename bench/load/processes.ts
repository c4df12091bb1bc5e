import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The stack's processes as the operating system sees them: every descendant of its Node process, by name,
 * for the memory figures and for killing the functions runtime (its Deno workers) as a crash would.
 */
interface ProcessInfo {
  pid: number;
  ppid: number;
  name: string;
}

async function allProcesses(): Promise<ProcessInfo[]> {
  const entries = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  const found: ProcessInfo[] = [];
  for (const entry of entries) {
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // `pid (name) state ppid …`: the name may hold spaces and parentheses, so it is cut at the last ')'.
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      // The program's own name where the command line gives one (a thread may have renamed the process).
      const argv0 = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0')[0] ?? '';
      found.push({ pid: Number(entry), ppid, name: path.basename(argv0) || name });
    } catch {
      // The process ended while the list was read.
    }
  }
  return found;
}

export async function descendants(root: number): Promise<ProcessInfo[]> {
  const processes = await allProcesses();
  const self = processes.find((info) => info.pid === root);
  const tree: ProcessInfo[] = self ? [self] : [];
  for (let index = 0; index < tree.length; index++) {
    tree.push(...processes.filter((info) => info.ppid === tree[index]!.pid));
  }
  return tree;
}

/**
 * A process's proportional set size (shared pages counted once across processes), and the part of it that is
 * shared memory (Postgres's buffers).
 */
async function pss(pid: number): Promise<{ total: number; sharedMemory: number }> {
  try {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
    return { total: kilobytes('Pss') * 1024, sharedMemory: kilobytes('Pss_Shmem') * 1024 };
  } catch {
    return { total: 0, sharedMemory: 0 };
  }
}

const POSTGRES_PROCESSES = 'Postgres (all its processes, without shared memory)';

/** What the memory rows are named by: the stack's own Node process, then its children by program. */
function groupOf(info: ProcessInfo, root: number): string {
  if (info.pid === root) return 'stack (Node: gateway, Auth, Storage, Realtime)';
  // PostgREST's name starts like Postgres's, so it is told apart first.
  if (info.name.startsWith('postgrest')) return 'PostgREST';
  if (info.name.startsWith('postgres')) return POSTGRES_PROCESSES;
  if (info.name.startsWith('deno')) return 'functions runtime (Deno workers)';
  return info.name;
}

export const POSTGRES_SHARED_MEMORY = 'Postgres shared memory (buffers touched so far, at most shared_buffers)';

/** One part's memory: the sum of PSS over its processes, and how many there were. */
export interface PartMemory {
  bytes: number;
  /** How many processes the part had (a pool that opened more connections has more backends). */
  processes: number;
}

/**
 * Memory of each part of the stack now. Postgres's shared memory is its own row: shared_buffers is a cache of
 * fixed size that fills as pages are read, so it grows through any run without being a leak; the processes'
 * own memory is what would show one.
 */
export async function stackMemory(root: number): Promise<Map<string, PartMemory>> {
  const memory = new Map<string, PartMemory>();
  const add = (group: string, bytes: number) => {
    const part = memory.get(group) ?? { bytes: 0, processes: 0 };
    memory.set(group, { bytes: part.bytes + bytes, processes: part.processes + 1 });
  };
  for (const info of await descendants(root)) {
    const group = groupOf(info, root);
    const { total, sharedMemory } = await pss(info.pid);
    if (group === POSTGRES_PROCESSES) {
      add(group, total - sharedMemory);
      add(POSTGRES_SHARED_MEMORY, sharedMemory);
    } else {
      add(group, total);
    }
  }
  return memory;
}

const TICKS_PER_SECOND = 100;

/** CPU-seconds (user + system) each process of the stack has used so far, by pid, with its part's name. */
export async function stackCpu(root: number): Promise<Map<number, { group: string; seconds: number }>> {
  const used = new Map<number, { group: string; seconds: number }>();
  for (const info of await descendants(root)) {
    try {
      const stat = await readFile(`/proc/${info.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Fields 14 and 15 of stat (utime, stime), counted after the name: indexes 11 and 12 here.
      const ticks = Number(fields[11]) + Number(fields[12]);
      used.set(info.pid, { group: groupOf(info, root), seconds: ticks / TICKS_PER_SECOND });
    } catch {
      // Ended meanwhile.
    }
  }
  return used;
}

/** SIGKILL to every Deno worker of the stack, as a crash of the functions runtime; how many there were. */
export async function killFunctionsRuntime(root: number): Promise<number> {
  const workers = (await descendants(root)).filter((info) => info.name.startsWith('deno'));
  for (const worker of workers) {
    try {
      process.kill(worker.pid, 'SIGKILL');
    } catch {
      // Already gone (aged out meanwhile).
    }
  }
  return workers.length;
}
