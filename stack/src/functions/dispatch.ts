import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { HOP_BY_HOP_HEADERS } from '../http/proxy.ts';
import {
  IDLE_TIMEOUT_BODY,
  WORKER_LIMIT_BODY,
  WORKER_LIMIT_STATUS,
  type FunctionLimits,
  type ShutdownReason,
} from './limits.ts';
import type { FunctionWorker } from './worker.ts';

/**
 * Hands one request to a worker and its answer back, streaming both ways, and answers for the runtime where
 * hosted's would: 546 when the worker was ended by a limit, 504 when no response head came before the idle
 * timeout, `text/html` rewritten to `text/plain` on GET unless the project stands for one with a custom domain.
 * Each finished request leaves a usage record (what the benchmarks report).
 */

export interface FunctionRequestUsage {
  function: string;
  method: string;
  status: number;
  cpuMs: number;
  peakMemoryMb: number;
  wallMs: number;
  /** The `x-server-job` response header: which job kind a `run-jobs` call ran. */
  job: string | null;
  limit: ShutdownReason | null;
}

const sendError = (res: ServerResponse, status: number, body: unknown, code: string) => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json', 'sb-error-code': code });
  res.end(JSON.stringify(body));
};

function responseHeaders(upstream: IncomingMessage, method: string, limits: FunctionLimits): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(upstream.headers)) {
    if (!HOP_BY_HOP_HEADERS.has(key) && value !== undefined) headers[key] = value;
  }
  const type = headers['content-type'];
  if (method === 'GET' && !limits.customDomain && typeof type === 'string' && /^\s*text\/html\b/i.test(type)) {
    headers['content-type'] = type.replace(/text\/html/i, 'text/plain');
  }
  return headers;
}

export function dispatchToWorker(
  req: IncomingMessage,
  res: ServerResponse,
  subpath: string,
  worker: FunctionWorker,
  name: string,
  limits: FunctionLimits,
  record: (usage: FunctionRequestUsage) => void,
): void {
  const method = req.method ?? 'GET';
  const account = worker.begin(`${method} ${subpath.split('?')[0]}`);
  let settled = false;
  let job: string | null = null;
  const settle = () => {
    if (settled) return;
    settled = true;
    clearTimeout(idle);
    worker.finish(account);
    record({
      function: name,
      method,
      status: res.statusCode,
      cpuMs: Math.round(account.cpuMs),
      peakMemoryMb: Math.round((account.peakMemoryBytes / 1048576) * 10) / 10,
      wallMs: Date.now() - account.startedAt,
      job,
      limit: account.endedBy && account.endedBy !== 'Crash' ? account.endedBy : null,
    });
  };

  const headers: OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP_HEADERS.has(key) && value !== undefined) headers[key] = value;
  }
  const upstream = http.request(
    { hostname: '127.0.0.1', port: worker.port, path: subpath, method, headers },
    (answer) => {
      clearTimeout(idle);
      job = typeof answer.headers['x-server-job'] === 'string' ? answer.headers['x-server-job'] : null;
      res.writeHead(answer.statusCode ?? 502, responseHeaders(answer, method, limits));
      // Functions stream their output (server-sent events, progress): the head goes out at once.
      res.flushHeaders();
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    },
  );
  const idle = setTimeout(() => {
    upstream.destroy();
    sendError(res, 504, IDLE_TIMEOUT_BODY, 'IDLE_TIMEOUT');
    settle();
  }, limits.idleTimeoutMs);

  account.onEnded = (reason) => {
    upstream.destroy();
    if (reason === 'Crash') {
      sendError(
        res,
        500,
        { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' },
        'WORKER_ERROR',
      );
    } else {
      sendError(res, WORKER_LIMIT_STATUS, WORKER_LIMIT_BODY, 'WORKER_RESOURCE_LIMIT');
    }
    settle();
  };
  upstream.on('error', () => {
    // A worker ended by a limit already answered through onEnded.
    if (account.endedBy) return;
    sendError(res, 502, { code: 'WORKER_ERROR', message: 'The function runtime did not answer' }, 'WORKER_ERROR');
    settle();
  });
  res.on('close', settle);
  req.on('aborted', () => upstream.destroy());
  req.pipe(upstream);
}
