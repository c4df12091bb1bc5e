import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { signedInSeed } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';

/**
 * The 'Sin traducir al inglés' filter: the same condition serves search, the selection summary
 * and bulk actions on "all filtered files", so what the screen lists is exactly what 'Seleccionar todos' acts on.
 */
let admin: SupabaseClient;
const marker = `trad${crypto.randomUUID().slice(0, 6)}`;
const ids: Record<string, string> = {};

beforeAll(async () => {
  admin = await signedInSeed('ADMIN');
  const cases: Record<string, Record<string, string>> = {
    translated: {
      name_es: `${marker} Piscina`,
      name_en: `${marker} Pool`,
      description_es: 'Vista',
      description_en: 'View',
    },
    sameTitle: { name_es: `${marker} Terraza`, name_en: `${marker} Terraza` },
    emptyDescription: {
      name_es: `${marker} Spa`,
      name_en: `${marker} Spa area`,
      description_es: 'Zona de aguas',
      description_en: ' ',
    },
    noDescriptions: { name_es: `${marker} Bar`, name_en: `${marker} Lounge bar` },
  };
  for (const [key, columns] of Object.entries(cases)) {
    const [id] = await insertFiles(marker, 1, { name: () => columns.name_es!, ...columns });
    ids[key] = id!;
  }
});

const search = async (filter: Record<string, unknown>) => {
  const [page, count] = await Promise.all([
    admin.rpc('search_files', { p_filter: filter, p_limit: 50 }),
    admin.rpc('count_files', { p_filter: filter }),
  ]);
  expect(page.error).toBeNull();
  expect(count.error).toBeNull();
  return { total: count.data as number, files: page.data as Array<{ id: string }> };
};

describe('missing translation filter', () => {
  it('lists files whose English title is the Spanish one or whose English description is missing', async () => {
    const result = await search({ query: marker, translation: 'missing' });
    expect(result.files.map((file) => file.id).sort()).toEqual([ids.sameTitle, ids.emptyDescription].sort());
    expect(result.total).toBe(2);
    expect((await search({ query: marker })).total).toBe(4);
  });

  it("means the same set for 'Seleccionar todos' and its bulk actions", async () => {
    const summary = await admin.rpc('file_selection_summary', { p_filter: { query: marker, translation: 'missing' } });
    expect(summary.error).toBeNull();
    expect((summary.data as { count: number }).count).toBe(2);
  });

  it('refuses an unknown value with the Supabase error shape', async () => {
    const { error } = await admin.rpc('search_files', { p_filter: { translation: 'some' }, p_limit: 1 });
    expect(error).toMatchObject({ code: '22023', message: 'Unknown translation filter "some"' });
  });
});
