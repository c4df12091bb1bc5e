import { readRetry } from '../../src/lib/errors.ts';
import { percentile } from '../lib/report.ts';

/**
 * What the run measures: the time of every request by kind, separately for the one-user baseline and for
 * the load, and every failure a person would have seen, with what it said.
 */
export type Phase = 'one user' | 'load';

export type RequestKind =
  | 'sign in'
  | 'search (first page of 100)'
  | 'scroll (next page of 50)'
  | 'open a file'
  | 'save a file (update_file)'
  | 'bulk tag 20 files (set_files_tags)'
  | 'upload a 6 MiB chunk (TUS PATCH)'
  | 'realtime change delivered';

export interface SeenError {
  kind: string;
  at: number;
  message: string;
}

export class Metrics {
  phase: Phase = 'one user';
  private readonly samples = new Map<string, number[]>();
  readonly seen: SeenError[] = [];
  /** While Postgres restarts or the functions runtime is down, failures are expected and counted apart. */
  faultWindow = false;
  readonly seenDuringFaults: SeenError[] = [];
  private readonly startedAt = Date.now();

  record(kind: RequestKind, ms: number, phase = this.phase) {
    const key = `${phase}|${kind}`;
    const list = this.samples.get(key) ?? [];
    list.push(ms);
    this.samples.set(key, list);
  }

  /** A failure shown to the person: a toast, a failed upload, a form that would not save. */
  personSaw(kind: string, error: unknown) {
    const message = describe(error);
    const entry = { kind, at: (Date.now() - this.startedAt) / 1000, message };
    (this.faultWindow ? this.seenDuringFaults : this.seen).push(entry);
  }

  p95(kind: RequestKind, phase: Phase): number {
    return percentile(this.samples.get(`${phase}|${kind}`) ?? [], 95);
  }

  count(kind: RequestKind, phase: Phase): number {
    return this.samples.get(`${phase}|${kind}`)?.length ?? 0;
  }

  /** Times one call; a thrown error is the caller's to judge (a conflict is an answer, not a failure). */
  async time<T>(kind: RequestKind, call: () => PromiseLike<T>): Promise<T> {
    const started = performance.now();
    const result = await call();
    this.record(kind, performance.now() - started);
    return result;
  }

  /**
   * A read as the app's query client does it (`readRetry`): tried again while the failure may pass (a lost
   * connection, a 5xx once; PostgREST finding its database again, for up to 31 s), then the person sees the
   * error. `call` returns supabase-js's `{ data, error }`.
   */
  async read<T>(kind: RequestKind, call: () => PromiseLike<{ data: T; error: unknown }>): Promise<T | null> {
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      const { data, error } = await call();
      if (!error) {
        this.record(kind, performance.now() - started);
        return data;
      }
      if (!readRetry.retry(attempt, error)) {
        this.personSaw(kind, error);
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, readRetry.retryDelay(attempt)));
    }
  }
}

export function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  const parts = error as { code?: string; message?: string; hint?: string } | null;
  return parts?.message ? `${parts.code ?? ''} ${parts.message}`.trim() : JSON.stringify(error);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A person's pause between actions: 0.5–3 s, read as they read a page. */
export const thinkTime = () => sleep(500 + Math.random() * 2500);

export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
