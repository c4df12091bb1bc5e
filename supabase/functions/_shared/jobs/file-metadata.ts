// Stores what post-processing read from an image (embedded-metadata.ts) in public.file_metadata, and lets a
// new upload fill what it can: its title (headline, dc:title or IPTC object name) becomes the title while
// that is still the name the upload gave it (the file name without its extension), its caption the Spanish description while that is
// empty. Only at the first read of the file's metadata (no row yet), so a replacement or a second processing
// never overwrites what a person wrote; each fill is one conditional update, so an edit that lands first wins.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { EmbeddedMetadata } from './embedded-metadata.ts';

interface FileNames {
  id: string;
  original_file_name: string;
}

/** The Spanish title the upload screen gives a new file: its original name without the extension. */
export function uploadTitleOf(originalFileName: string): string {
  const dot = originalFileName.lastIndexOf('.');
  return (dot > 0 ? originalFileName.slice(0, dot) : originalFileName) || originalFileName;
}

export async function recordEmbeddedMetadata(
  admin: SupabaseClient,
  file: FileNames,
  objectPath: string,
  metadata: EmbeddedMetadata,
): Promise<void> {
  const existing = await admin.from('file_metadata').select('file_id').eq('file_id', file.id).maybeSingle();
  if (existing.error) throw existing.error;
  const stored = await admin.from('file_metadata').upsert({
    file_id: file.id,
    camera_make: metadata.cameraMake,
    camera_model: metadata.cameraModel,
    lens: metadata.lens,
    orientation: metadata.orientation,
    gps_latitude: metadata.gpsLatitude,
    gps_longitude: metadata.gpsLongitude,
    creator: metadata.creator,
    credit: metadata.credit,
    copyright: metadata.copyright,
    usage_terms: metadata.usageTerms,
    headline: metadata.headline,
    caption: metadata.caption,
    keywords: metadata.keywords,
    read_error: metadata.readError,
    read_at: new Date().toISOString(),
  });
  // Deleted meanwhile (the foreign key): nothing to record, and the job ends with the file gone.
  if (stored.error?.code === '23503') return;
  if (stored.error) throw stored.error;
  if (existing.data) return;
  if (metadata.title) {
    // Still untranslated as the upload left it: the English title follows, which is how 'Sin traducir'
    // (English title = Spanish title) is kept; otherwise only the Spanish one is filled.
    const uploadTitle = uploadTitleOf(file.original_file_name);
    const both = await admin
      .from('files')
      .update({ name_es: metadata.title, name_en: metadata.title })
      .eq('id', file.id)
      .eq('object_path', objectPath)
      .eq('name_es', uploadTitle)
      .eq('name_en', uploadTitle)
      .select('id');
    if (both.error) throw both.error;
    if (both.data.length === 0) {
      const titled = await admin
        .from('files')
        .update({ name_es: metadata.title })
        .eq('id', file.id)
        .eq('object_path', objectPath)
        .eq('name_es', uploadTitle);
      if (titled.error) throw titled.error;
    }
  }
  if (metadata.caption) {
    const described = await admin
      .from('files')
      .update({ description_es: metadata.caption })
      .eq('id', file.id)
      .eq('object_path', objectPath)
      .eq('description_es', '');
    if (described.error) throw described.error;
  }
}
