import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, filtersFromParams } from './file-filters.ts';

describe('filtersFromParams', () => {
  it('reads every filter and the sort from the URL', () => {
    const tag = 'd0000000-0000-4000-8000-000000000001';
    const { filters, sort } = filtersFromParams(
      new URLSearchParams(
        `q=piscina&type=image&tag=${tag}&status=published&operations=OPERATIONS&translation=missing&sort=size_asc`,
      ),
    );
    expect(filters).toEqual({
      query: 'piscina',
      type: 'image',
      tagId: tag,
      status: 'published',
      operations: 'OPERATIONS',
      translation: 'missing',
    });
    expect(sort).toBe('size_asc');
  });

  it('drops what the database would refuse instead of failing the screen', () => {
    const { filters, sort } = filtersFromParams(new URLSearchParams('type=video&tag=abc&status=x&sort=random'));
    expect(filters).toEqual({});
    expect(sort).toBe(DEFAULT_SORT);
  });
});
