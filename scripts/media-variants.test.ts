// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { MEDIA_VARIANTS, THUMBNAIL_SIZES, sizeLabel } from '../supabase/functions/_shared/media-variants.ts';

describe('the media variants table', () => {
  it('offers public pages only sizes that public-media serves', () => {
    const served = THUMBNAIL_SIZES.map(sizeLabel);
    for (const name of ['publicCard', 'preview', 'large'] as const) {
      const { width, height } = MEDIA_VARIANTS[name];
      expect(served).toContain(sizeLabel([width, height]));
    }
  });
});
