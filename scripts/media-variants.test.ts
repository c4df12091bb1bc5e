// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as app from '../src/lib/media/variants.ts';
import * as functions from '../supabase/functions/_shared/media-variants.ts';

/** Everything after the opening comment, which is the one part that differs between the copies. */
const body = (path: string) => readFileSync(path, 'utf8').replace(/^(\/\/.*\n)+/, '');

describe('the media variants table', () => {
  it("is the same in the app and in the edge functions' copy", () => {
    expect(body('supabase/functions/_shared/media-variants.ts')).toBe(body('src/lib/media/variants.ts'));
    expect(functions.MEDIA_VARIANTS).toEqual(app.MEDIA_VARIANTS);
    expect(functions.THUMBNAIL_SIZES).toEqual(app.THUMBNAIL_SIZES);
    expect(functions.SIGNED_URL_SECONDS).toEqual(app.SIGNED_URL_SECONDS);
  });

  it('offers public pages only sizes that public-media serves', () => {
    const served = app.THUMBNAIL_SIZES.map(app.sizeLabel);
    for (const name of ['publicCard', 'preview', 'large'] as const) {
      const { width, height } = app.MEDIA_VARIANTS[name];
      expect(served).toContain(app.sizeLabel([width, height]));
    }
  });
});
