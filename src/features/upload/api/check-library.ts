import { supabase } from '../../../lib/supabase.ts';
import type { ExistingCopy } from '../lib/upload-items.ts';

/**
 * Which of these sizes some file of the library has (only sizes of large files are asked): a file of any
 * other size cannot be a copy, and need not be hashed.
 */
export async function sizesInLibrary(sizes: readonly number[]): Promise<Set<number>> {
  if (sizes.length === 0) return new Set();
  const { data, error } = await supabase.rpc('upload_sizes_in_library', { p_sizes: [...new Set(sizes)] });
  if (error) throw error;
  return new Set((data ?? []).map(Number));
}

/**
 * The library's copy of the file with this sha256, if any. The database looks at every file, and names the
 * copy (with a link) only when this person may open it.
 */
export async function copyInLibrary(checksum: string): Promise<ExistingCopy | null> {
  const { data, error } = await supabase.rpc('uploads_in_library', { p_checksums: [checksum] });
  if (error) throw error;
  const [copy] = data ?? [];
  return copy ? { fileId: copy.file_id, name: copy.name_es } : null;
}
