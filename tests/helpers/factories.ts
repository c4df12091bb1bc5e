import type { SupabaseClient } from '@supabase/supabase-js';
import { client } from './clients.ts';
import { seedAccounts } from './seed.ts';

export interface FileOverrides {
  extension?: string;
  width?: number | null;
  height?: number | null;
  name?: (index: number) => string;
  [column: string]: unknown;
}

/**
 * Inserts `count` file rows named '<marker> <i>' (service role, behind the API's checks), as the admin's
 * uploads unless overridden. Rows only: no stored object, so images show their placeholder tile. `service` is
 * the shared test stack's service-role client unless a test runs a stack of its own.
 */
export async function insertFiles(
  marker: string,
  count: number,
  overrides: FileOverrides = {},
  service: SupabaseClient = client('service_role'),
): Promise<string[]> {
  const { extension = 'pdf', name = (index: number) => `${marker} ${index}`, ...columns } = overrides;
  const rows = Array.from({ length: count }, (_, index) => {
    const id = crypto.randomUUID();
    return {
      id,
      file_name: `${index}.${extension}`,
      object_path: `${id}/${index}.${extension}`,
      original_file_name: `${marker}-${index}.${extension}`,
      name_es: name(index),
      name_en: name(index),
      size: 1000 + index,
      extension,
      processing: false,
      uploader_id: seedAccounts.ADMIN.id,
      ...columns,
    };
  });
  for (let start = 0; start < rows.length; start += 500) {
    const { error } = await service.from('files').insert(rows.slice(start, start + 500));
    if (error) throw error;
  }
  return rows.map((row) => row.id);
}
