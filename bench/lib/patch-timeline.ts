import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { percentile } from './report.ts';

/**
 * Where the time of each TUS PATCH goes, seen from the stack's gateway (watched in the stack's process, see
 * stack-process-child.ts): Node's http server announces every request and every finished response on
 * diagnostics channels, so no part of the stack is touched. Per chunk:
 * - client: from the previous PATCH's 204 leaving the gateway to this PATCH's headers arriving (the
 *   client reading its answer, choosing the next chunk, a token, building and sending the request);
 * - body: from the headers to the last byte read from the socket (the server's checks before it reads
 *   the body, then the bytes at whichever pace is slower, the client's or the stack's);
 * - answer: from the last byte to the 204 leaving (the write to the file finishing, the upload's record).
 */

interface Patch {
  start: number;
  bodyEnd?: number;
  answered?: number;
}

export interface ChunkBreakdown {
  chunks: number;
  /** CORS preflights (OPTIONS) for the upload URLs among them: each one is a round trip before a chunk. */
  preflights: number;
  /** Medians, ms. */
  client: number;
  body: number;
  answer: number;
}

export function watchPatches() {
  let patches: Patch[] = [];
  let preflights = 0;
  const onStart = (message: unknown) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    if (!request.url?.includes('/upload/resumable/')) return;
    if (request.method === 'OPTIONS') preflights += 1;
    if (request.method !== 'PATCH') return;
    const patch: Patch = { start: performance.now() };
    patches.push(patch);
    request.once('end', () => (patch.bodyEnd = performance.now()));
    response.once('finish', () => (patch.answered = performance.now()));
  };
  diagnostics.subscribe('http.server.request.start', onStart);
  return {
    /** The breakdown of the PATCHes seen since the last call. */
    take(): ChunkBreakdown {
      const seen = patches;
      const preflighted = preflights;
      patches = [];
      preflights = 0;
      const client: number[] = [];
      const body: number[] = [];
      const answer: number[] = [];
      seen.forEach((patch, index) => {
        const previous = seen[index - 1]?.answered;
        if (previous !== undefined) client.push(patch.start - previous);
        if (patch.bodyEnd !== undefined) body.push(patch.bodyEnd - patch.start);
        if (patch.bodyEnd !== undefined && patch.answered !== undefined) answer.push(patch.answered - patch.bodyEnd);
      });
      return {
        chunks: seen.length,
        preflights: preflighted,
        client: percentile(client, 50),
        body: percentile(body, 50),
        answer: percentile(answer, 50),
      };
    },
    stop: () => diagnostics.unsubscribe('http.server.request.start', onStart),
  };
}

export const describeChunks = (b: ChunkBreakdown) =>
  `${b.chunks} PATCHes (${b.preflights} preflights), per chunk (median): client ${b.client.toFixed(1)} ms, body ${b.body.toFixed(1)} ms, ` +
  `answer ${b.answer.toFixed(1)} ms`;
