import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type pg from 'pg';
import { adminDb, client, signedInSeed, stackInfo } from '../helpers/clients.ts';

/**
 * No 5xx for a bad request or a missing setting. Walks every edge function in supabase/functions and every RPC
 * the app calls (found in src/ the way the app writes them, `.rpc('name'`), with bad input, as nobody, as an
 * uploader and as an admin: each answer must be under 500 and say what happened with a code. The shared test
 * stack sets no PUBLIC_SITE_URL or SITE_URL, so share-preview and public-feed run here with that setting
 * missing. video-info's answer without its provider key is another test's; here it only has to stay under 500.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const FUNCTIONS_DIR = path.join(ROOT, 'supabase/functions');

let admin: SupabaseClient;
let uploader: SupabaseClient;
let adminToken: string;
let uploaderToken: string;
let db: pg.Client;

beforeAll(async () => {
  admin = await signedInSeed('ADMIN');
  uploader = await signedInSeed('UPLOADER');
  adminToken = (await admin.auth.getSession()).data.session!.access_token;
  uploaderToken = (await uploader.auth.getSession()).data.session!.access_token;
  db = await adminDb();
});

afterAll(async () => {
  await db?.end();
});

const edgeFunctions = readdirSync(FUNCTIONS_DIR).filter(
  (name) => !name.startsWith('_') && statSync(path.join(FUNCTIONS_DIR, name)).isDirectory(),
);

/** Every `.rpc('name'` in the app's sources. */
function rpcsTheAppCalls(): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const match of readFileSync(full, 'utf8').matchAll(/\.rpc\(\s*'([a-z_]+)'/g)) names.add(match[1]!);
      }
    }
  };
  walk(path.join(ROOT, 'src'));
  return [...names].sort();
}

interface Answer {
  status: number;
  body: string;
}

async function call(name: string, init: RequestInit & { suffix?: string } = {}): Promise<Answer> {
  const response = await fetch(`${stackInfo().apiUrl}/functions/v1/${name}${init.suffix ?? ''}`, init);
  return { status: response.status, body: await response.text() };
}

const headersFor = (token: string | null, type = 'application/json') => ({
  apikey: stackInfo().anonKey,
  ...(token ? { authorization: `Bearer ${token}` } : {}),
  'content-type': type,
});

describe('every edge function, with bad input', () => {
  it('found the functions', () => {
    expect(edgeFunctions).toEqual(expect.arrayContaining(['run-jobs', 'staff-users', 'files-zip', 'video-info']));
  });

  for (const name of edgeFunctions) {
    it(`${name} answers bad requests without a 5xx, with a code`, async () => {
      const tokens = { nobody: null, anon: stackInfo().anonKey, uploader: uploaderToken, admin: adminToken };
      const answers: Array<[string, Answer]> = [];
      for (const [who, token] of Object.entries(tokens)) {
        const headers = headersFor(token);
        answers.push(
          [`${who} POST broken JSON`, await call(name, { method: 'POST', headers, body: '{"action": ' })],
          [`${who} POST an array`, await call(name, { method: 'POST', headers, body: '[1, 2]' })],
          [
            `${who} POST unknown fields`,
            await call(name, { method: 'POST', headers, body: '{"action":"nada","x":1}' }),
          ],
          [`${who} POST wrong types`, await call(name, { method: 'POST', headers, body: '{"fileId":42,"url":[]}' })],
          [
            `${who} POST text`,
            await call(name, { method: 'POST', headers: headersFor(token, 'text/plain'), body: 'hola' }),
          ],
          [
            `${who} POST a form with a bad selection`,
            await call(name, {
              method: 'POST',
              headers: headersFor(token, 'application/x-www-form-urlencoded'),
              body: new URLSearchParams({
                access_token: token ?? '',
                selection: '{"filter": {"type": "video"}}',
              }).toString(),
            }),
          ],
          [`${who} GET a junk path`, await call(name, { headers, suffix: '/no-es-un-id/%E0%A4%A?size=1x1&fit=x' })],
          [
            `${who} GET a file that is not there`,
            await call(name, { headers, suffix: `/file/${crypto.randomUUID()}` }),
          ],
          [`${who} PUT`, await call(name, { method: 'PUT', headers, body: '{}' })],
        );
      }
      const serverErrors = answers.filter(([, answer]) => answer.status >= 500);
      expect(serverErrors.map(([what, answer]) => `${what}: ${answer.status} ${answer.body.slice(0, 200)}`)).toEqual(
        [],
      );
      if (name === 'video-info') return;
      // Every refusal says what happened: a code (the functions' own JSON, or the gateway's message).
      for (const [what, answer] of answers) {
        if (answer.status < 400 || !answer.body.startsWith('{')) continue;
        const body = JSON.parse(answer.body) as { code?: unknown; msg?: unknown; message?: unknown };
        expect(typeof body.code === 'string' || typeof body.msg === 'string', `${what}: ${answer.body}`).toBe(true);
      }
    });
  }
});

/** A value of the wrong shape for a parameter of this Postgres type. */
function badValue(type: string): unknown {
  if (type === 'uuid') return 'no-es-un-uuid';
  if (type === 'uuid[]') return ['no-es-un-uuid'];
  if (type.endsWith('[]')) return 'no es una lista';
  if (type === 'jsonb' || type === 'json') return { type: 'video', status: 'quizá' };
  if (/^(integer|bigint|smallint|numeric|real|double precision)$/.test(type)) return 'muchos';
  if (type === 'boolean') return 'quizá';
  if (type.startsWith('timestamp') || type === 'date') return 'ayer';
  if (type === 'text') return 'x';
  return 'nada';
}

describe('every RPC the app calls, with bad input', () => {
  const rpcs = rpcsTheAppCalls();

  it('found the RPCs', () => {
    expect(rpcs).toEqual(expect.arrayContaining(['search_files', 'delete_files', 'publish_files', 'update_file']));
  });

  for (const name of rpcs) {
    it(`${name} refuses bad input without a 5xx, with a code`, async () => {
      // Each overload's input parameters, as "p_name type" pairs.
      const { rows } = await db.query<{ args: string }>(
        `select pg_get_function_identity_arguments(p.oid) as args
           from pg_proc p where p.pronamespace = 'public'::regnamespace and p.proname = $1`,
        [name],
      );
      const parameters = rows.flatMap((row) => row.args.split(', ').filter(Boolean));
      const bad = Object.fromEntries(
        parameters.map((parameter) => {
          const [parameterName, ...type] = parameter.split(' ');
          return [parameterName!, badValue(type.join(' '))];
        }),
      );
      // Never an admin call without arguments: some bulk actions would then apply to the whole library.
      const attempts: Array<[string, SupabaseClient, Record<string, unknown>]> = [
        ['anon, no arguments', client('anon'), {}],
        ['anon, wrong types', client('anon'), bad],
        ['uploader, wrong types', uploader, bad],
        ['admin, wrong types', admin, bad],
        ['admin, an unknown argument', admin, { ...bad, p_no_existe: 1 }],
      ];
      for (const [who, caller, args] of attempts) {
        const answer = await caller.rpc(name, args);
        if (answer.error === null) continue;
        expect(answer.status, `${who}: ${JSON.stringify(answer.error)}`).toBeLessThan(500);
        expect(answer.error.code, `${who}: ${JSON.stringify(answer.error)}`).toMatch(/\S/);
      }
    });
  }
});
