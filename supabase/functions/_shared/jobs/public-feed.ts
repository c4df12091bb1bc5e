// The public JSON feed of published files (spec: updateJson), written to the public `public-feed` bucket
// as feed.json. Storage swaps the object in one step, so readers never see half a feed, and concurrent
// regenerations each write a complete one (the last wins). Shape: see README "Public feed".
import type { SupabaseClient } from '@supabase/supabase-js';
import { THUMBNAIL_SIZES, sizeLabel } from '../media-variants.ts';

const PAGE = 1000;

interface Category {
  id: string;
  name_es: string;
  name_en: string;
  hide_b2c: boolean;
  hide_b2b: boolean;
}

/** Writes feed.json from the published files; returns how many it lists. */
export async function regenerateFeed(admin: SupabaseClient): Promise<{ files: number; generatedAt: string }> {
  const functionsUrl = `${Deno.env.get('SUPABASE_URL')}/functions/v1`;
  const siteUrl = (Deno.env.get('PUBLIC_SITE_URL') ?? Deno.env.get('SITE_URL') ?? '').replace(/\/$/, '');

  const files = [];
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await admin
      .from('files')
      .select(
        'id, name_es, name_en, description_es, description_en, extension, size, uploaded_on, is_image, b2b, file_tags(tag_id), collection_files(collection_id)',
      )
      .eq('published', true)
      .order('uploaded_on', { ascending: false })
      .order('id')
      .range(from, from + PAGE - 1);
    if (error) throw error;
    files.push(...data);
    if (data.length < PAGE) break;
  }
  const [categories, tags, collections] = await Promise.all([
    admin.from('tag_categories').select('id, name_es, name_en, hide_b2c, hide_b2b'),
    admin.from('tags').select('id, name_es, name_en, category_id'),
    admin.from('collections').select('id, name').eq('is_public', true),
  ]);
  for (const result of [categories, tags, collections]) if (result.error) throw result.error;
  const categoryById = new Map((categories.data as Category[]).map((c) => [c.id, c]));
  const tagById = new Map(tags.data!.map((t) => [t.id, t]));
  const publicCollections = new Set(collections.data!.map((c) => c.id));

  const tagJson = (tagId: string, audience: 'b2c' | 'b2b') => {
    const tag = tagById.get(tagId);
    const category = tag ? categoryById.get(tag.category_id) : undefined;
    if (!tag || !category) return null;
    if (audience === 'b2c' ? category.hide_b2c : category.hide_b2b) return null;
    return {
      id: tag.id,
      nameEs: tag.name_es,
      nameEn: tag.name_en,
      category: { id: category.id, nameEs: category.name_es, nameEn: category.name_en },
    };
  };

  const feed = {
    generatedAt: new Date().toISOString(),
    files: files.map((file) => {
      const tagIds = (file.file_tags as Array<{ tag_id: string }>).map((link) => link.tag_id);
      const original = `${functionsUrl}/public-media/${file.id}`;
      return {
        id: file.id,
        nameEs: file.name_es,
        nameEn: file.name_en,
        descriptionEs: file.description_es,
        descriptionEn: file.description_en,
        extension: file.extension,
        size: file.size,
        uploadedOn: file.uploaded_on,
        b2b: file.b2b,
        sharingUrl: `${siteUrl}/file/${file.id}`,
        urls: {
          original,
          thumbnails: file.is_image
            ? Object.fromEntries(THUMBNAIL_SIZES.map((s) => [sizeLabel(s), `${original}?size=${sizeLabel(s)}`]))
            : null,
        },
        tags: tagIds.map((id) => tagJson(id, 'b2c')).filter(Boolean),
        b2bTags: file.b2b ? tagIds.map((id) => tagJson(id, 'b2b')).filter(Boolean) : [],
        collections: (file.collection_files as Array<{ collection_id: string }>)
          .map((link) => link.collection_id)
          .filter((id) => publicCollections.has(id)),
      };
    }),
    collections: collections.data!.map((c) => ({ id: c.id, name: c.name })),
  };

  const written = await admin.storage
    .from('public-feed')
    .upload('feed.json', new Blob([JSON.stringify(feed)], { type: 'application/json' }), {
      upsert: true,
      cacheControl: '60',
      contentType: 'application/json',
    });
  if (written.error) throw written.error;
  return { files: feed.files.length, generatedAt: feed.generatedAt };
}
