import { describe, expect, it } from 'vitest';
import { publicThumbnailUrl, videoIdFromUrl, watchUrl } from './video-id.ts';

describe('videoIdFromUrl', () => {
  it('reads the id of watch, short, embed and youtu.be links', () => {
    expect(videoIdFromUrl('https://www.youtube.com/watch?v=M7lc1UVf_VE&t=42')).toBe('M7lc1UVf_VE');
    expect(videoIdFromUrl(' https://youtu.be/dQw4w9WgXcQ ')).toBe('dQw4w9WgXcQ');
    expect(videoIdFromUrl('https://www.youtube.com/shorts/onlyMedium1')).toBe('onlyMedium1');
    expect(videoIdFromUrl('https://www.youtube.com/embed/dQw4w9WgXcQ?start=3')).toBe('dQw4w9WgXcQ');
  });

  it('finds nothing in text, other schemes or links without an id', () => {
    expect(videoIdFromUrl('esto no es una url')).toBeNull();
    expect(videoIdFromUrl('ftp://youtu.be/dQw4w9WgXcQ')).toBeNull();
    expect(videoIdFromUrl('https://www.youtube.com/')).toBeNull();
    expect(videoIdFromUrl('https://www.youtube.com/watch?v=<script>')).toBeNull();
  });

  it('builds the watch link and the public thumbnail of an id', () => {
    expect(watchUrl('M7lc1UVf_VE')).toBe('https://www.youtube.com/watch?v=M7lc1UVf_VE');
    expect(publicThumbnailUrl('M7lc1UVf_VE')).toBe('https://i.ytimg.com/vi/M7lc1UVf_VE/hqdefault.jpg');
  });
});
