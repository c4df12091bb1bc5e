import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mainThreadCpuMs, residentBytes, type FunctionLimits, type ShutdownReason } from './limits.ts';

/**
 * One worker: a Deno process running one function (stack/deno/function-worker.ts), watched the way the edge
 * runtime's supervisor watches a user worker. While requests are in flight it samples the process every
 * 25 ms: the main thread's CPU time (split evenly between the requests in flight during each sample, so a
 * request alone is charged exactly what it used), its memory above what it held once booted, and its age.
 * Past a limit the worker is killed at once and every request it held learns why; the pool starts a fresh
 * worker for the next request.
 */

const SAMPLE_MS = 25;

export class BootError extends Error {}

/** What one request used, filled in while it runs. */
export interface RequestAccount {
  readonly startedAt: number;
  /** `POST /run-jobs`: what the log names when the worker is ended with this request in flight. */
  readonly label: string;
  cpuMs: number;
  peakMemoryBytes: number;
  /** Set when the worker was ended while this request was in flight. */
  endedBy?: ShutdownReason | 'Crash';
  onEnded?: (reason: ShutdownReason | 'Crash') => void;
}

export interface WorkerOptions {
  name: string;
  deno: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  limits: FunctionLimits;
  log: (message: string) => void;
}

export class FunctionWorker {
  readonly bornAt = Date.now();
  private readonly inFlight = new Set<RequestAccount>();
  private sampler: NodeJS.Timeout | undefined;
  private lastCpuMs = 0;
  private alive = true;
  private heapExhausted = false;
  /** The process is gone (ended by us or on its own). */
  exited = false;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly baselineBytes: number,
    private readonly options: WorkerOptions,
  ) {
    const wallClock = setTimeout(() => this.end('WallClockTime'), options.limits.wallClockMs);
    // Retired at half its wall clock: idle, it goes then; busy, when its last request finishes.
    const retire = setTimeout(() => {
      if (!this.inFlight.size) this.end();
    }, options.limits.wallClockMs / 2);
    wallClock.unref();
    retire.unref();
    child.once('exit', (code, signal) => {
      clearTimeout(wallClock);
      clearTimeout(retire);
      this.exited = true;
      if (!this.alive) return;
      this.alive = false;
      this.stopSampling();
      const reason = this.heapExhausted ? 'Memory' : 'Crash';
      if (this.inFlight.size) options.log(`function ${options.name}: worker exited (${code ?? signal}) mid-request`);
      for (const account of this.inFlight) this.notify(account, reason);
      this.inFlight.clear();
    });
  }

  static start(options: WorkerOptions): Promise<FunctionWorker> {
    const child = spawn(options.deno, options.args, {
      cwd: options.cwd,
      env: options.env,
      // stdin stays open for the worker's life: its end tells the worker its supervisor is gone.
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new Promise((resolve, reject) => {
      let booted = false;
      let worker: FunctionWorker | undefined;
      const stderr: string[] = [];
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        if (booted) {
          if (line.trim()) options.log(`[${options.name}] ${line}`);
          return;
        }
        let message: { ready?: number; bootError?: string } = {};
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          if (line.trim()) options.log(`[${options.name}] ${line}`);
          return;
        }
        booted = true;
        if (message.ready) {
          const baseline = residentBytes(child.pid!) ?? 0;
          worker = new FunctionWorker(child, message.ready, baseline, options);
          resolve(worker);
        } else {
          reject(new BootError(message.bootError ?? 'unknown boot failure'));
        }
      });
      createInterface({ input: child.stderr! }).on('line', (line) => {
        if (!line.trim()) return;
        if (/heap out of memory|Reached heap limit/i.test(line) && worker) worker.heapExhausted = true;
        if (!booted) stderr.push(line);
        options.log(`[${options.name}] ${line}`);
      });
      child.once('error', (error) => reject(new BootError(`could not start Deno: ${error.message}`)));
      child.once('exit', (code, signal) => {
        if (!booted)
          reject(new BootError(stderr.slice(-5).join('\n') || `Deno exited (${code ?? signal}) while booting`));
      });
    });
  }

  /** New requests go to a worker younger than half its wall clock, so each gets at least that half. */
  get accepting(): boolean {
    return this.alive && Date.now() - this.bornAt < this.options.limits.wallClockMs / 2;
  }

  get busy(): number {
    return this.inFlight.size;
  }

  begin(label: string): RequestAccount {
    const account: RequestAccount = { startedAt: Date.now(), label, cpuMs: 0, peakMemoryBytes: 0 };
    if (!this.inFlight.size) {
      this.lastCpuMs = mainThreadCpuMs(this.child.pid!) ?? 0;
      this.sampler = setInterval(() => this.sample(), SAMPLE_MS);
    }
    this.inFlight.add(account);
    return account;
  }

  /** The request's response is complete (or abandoned): a last sample charges what it used since the last one. */
  finish(account: RequestAccount): void {
    if (!this.inFlight.has(account)) return;
    this.sample();
    this.inFlight.delete(account);
    if (!this.inFlight.size) {
      this.stopSampling();
      // A retired worker with nothing left to do goes at once.
      if (!this.accepting) this.end();
    }
  }

  /** Ends the worker; with a reason, the requests it held are told why (each answers 546). */
  end(reason?: ShutdownReason): void {
    if (!this.alive) return;
    this.alive = false;
    this.stopSampling();
    if (reason && this.inFlight.size) {
      const requests = [...this.inFlight].map(
        (account) => `${account.label} for ${((Date.now() - account.startedAt) / 1000).toFixed(1)} s`,
      );
      this.options.log(`function ${this.options.name}: worker terminated (${reason}) with ${requests.join(', ')}`);
    }
    for (const account of this.inFlight) if (reason) this.notify(account, reason);
    this.inFlight.clear();
    this.child.kill('SIGKILL');
  }

  private notify(account: RequestAccount, reason: ShutdownReason | 'Crash') {
    account.endedBy = reason;
    account.onEnded?.(reason);
  }

  private stopSampling() {
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = undefined;
  }

  private sample() {
    if (!this.alive || !this.inFlight.size) return;
    const pid = this.child.pid!;
    const cpu = mainThreadCpuMs(pid);
    const resident = residentBytes(pid);
    if (cpu === null || resident === null) return;
    const share = Math.max(0, cpu - this.lastCpuMs) / this.inFlight.size;
    this.lastCpuMs = cpu;
    const grown = Math.max(0, resident - this.baselineBytes);
    const { limits } = this.options;
    let exceeded: ShutdownReason | undefined;
    for (const account of this.inFlight) {
      account.cpuMs += share;
      account.peakMemoryBytes = Math.max(account.peakMemoryBytes, grown);
      if (account.cpuMs > limits.cpuMs) exceeded ??= 'CPUTime';
    }
    if (grown > limits.memoryMb * 1024 * 1024) exceeded ??= 'Memory';
    if (exceeded) {
      const detail =
        exceeded === 'CPUTime'
          ? `over ${limits.cpuMs} ms of CPU in one request`
          : `${Math.round(grown / 1048576)} MB above its booted size, limit ${limits.memoryMb} MB`;
      this.options.log(`function ${this.options.name}: ${exceeded} limit reached (${detail})`);
      this.end(exceeded);
    }
  }
}
