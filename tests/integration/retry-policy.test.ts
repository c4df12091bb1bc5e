import { describe, expect, it } from 'vitest';
import { PostgrestError } from '@supabase/postgrest-js';
import { client, clientFor, signedInSeed, stackInfo } from '../helpers/clients.ts';
import { isWorthRetrying, readRetry, spanishError } from '../../src/lib/errors.ts';

/**
 * Which failed reads the app tries once more (src/lib/query-client.ts), on the errors the official clients
 * return from the stack: a refusal answers the same a second later, a lost connection may not.
 */
describe('isWorthRetrying', () => {
  it('gives up on a refusal: a missing object, a permission, a missing row, a bad value', async () => {
    const admin = await signedInSeed('ADMIN');
    const missingObject = await admin.storage
      .from('media')
      .createSignedUrl(`${crypto.randomUUID()}/missing.jpg`, 60, { transform: { width: 400, height: 300 } });
    const forbidden = await client().from('tags').insert({ name_es: 'x', name_en: 'x' });
    const noRow = await admin.from('files').select('id').eq('id', crypto.randomUUID()).single();
    const badValue = await admin.from('files').select('id').eq('id', 'not-a-uuid');

    expect(missingObject.error).toMatchObject({ message: 'Object not found' });
    expect(forbidden.error?.code).toBe('42501');
    expect(noRow.error?.code).toBe('PGRST116');
    expect(badValue.error?.code).toBe('22P02');
    for (const { error } of [missingObject, forbidden, noRow, badValue]) expect(isWorthRetrying(error)).toBe(false);
  });

  it('tries again when nothing answered, from PostgREST and from Storage', async () => {
    // A port nobody listens on: the request never reaches a server.
    const unreachable = clientFor('http://127.0.0.1:9', stackInfo().anonKey);
    const rest = await unreachable.rpc('count_files', { p_filter: {} });
    const storage = await unreachable.storage.from('media').createSignedUrl('a/b.jpg', 60);

    expect(rest.error?.message).toMatch(/fetch failed/);
    expect(storage.error?.message).toMatch(/fetch failed/);
    for (const { error } of [rest, storage]) expect(isWorthRetrying(error)).toBe(true);
  });

  it('tries again after a timeout or a serialization failure, as PostgREST reports them', () => {
    for (const code of ['57014', '40001', 'PGRST001']) {
      expect(isWorthRetrying(new PostgrestError({ message: 'x', details: '', hint: '', code }))).toBe(true);
    }
  });

  it('waits out a database restart: PostgREST reconnecting is tried again for half a minute, in Spanish after', () => {
    const reconnecting = new PostgrestError({
      message: 'Database connection error. Retrying the connection.',
      details: '',
      hint: '',
      code: 'PGRST000',
    });
    const tries = (error: unknown) => {
      let failures = 0;
      let waited = 0;
      while (readRetry.retry(failures, error)) waited += readRetry.retryDelay(failures++);
      return { retries: failures, waited };
    };
    expect(tries(reconnecting)).toEqual({ retries: 5, waited: 31_000 });
    expect(tries(new PostgrestError({ message: 'x', details: '', hint: '', code: '57014' }))).toEqual({
      retries: 1,
      waited: 1000,
    });
    expect(tries(new PostgrestError({ message: 'x', details: '', hint: '', code: '42501' }))).toEqual({
      retries: 0,
      waited: 0,
    });
    expect(spanishError(reconnecting)).toBe(
      'El servidor está volviendo a conectar con la base de datos. Inténtalo en unos segundos.',
    );
  });
});
