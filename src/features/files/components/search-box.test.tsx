import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { SEARCH_DEBOUNCE_MS, SearchBox } from './search-box.tsx';

/**
 * The screen's URL stands in as the parent's state: a reported search reaches it `urlDelayMs` later, as a
 * navigation does on a busy page, and comes back to the box as its value.
 */
function ScreenWithUrl({ initial, urlDelayMs, reports }: { initial: string; urlDelayMs: number; reports: string[] }) {
  const [query, setQuery] = useState(initial);
  return (
    <>
      <SearchBox
        value={query}
        onSearch={(next) => {
          reports.push(next ?? '');
          setTimeout(() => setQuery(next ?? ''), urlDelayMs);
        }}
      />
      <button type="button" onClick={() => setQuery('')}>
        Quitar filtros
      </button>
    </>
  );
}

function setUp(initial: string, urlDelayMs: number) {
  const reports: string[] = [];
  render(<ScreenWithUrl initial={initial} urlDelayMs={urlDelayMs} reports={reports} />);
  return { reports, box: screen.getByRole<HTMLInputElement>('searchbox', { name: 'Buscar' }) };
}

/** One key at a time, each typed into what the box shows at that moment, as a person's keyboard does. */
async function typeSlowly(box: HTMLInputElement, word: string, msPerKey: number) {
  for (const key of word) {
    fireEvent.change(box, { target: { value: box.value + key } });
    await act(() => vi.advanceTimersByTimeAsync(msPerKey));
  }
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('SearchBox', () => {
  it.each([50, 150, 400])('keeps every key typed at %i ms a key after clearing a search', async (msPerKey) => {
    const { box, reports } = setUp('piscina', 300);
    fireEvent.change(box, { target: { value: '' } });
    await typeSlowly(box, 'jardin', msPerKey);
    expect(box.value).toBe('jardin');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 300));
    expect(box.value).toBe('jardin');
    expect(reports.at(-1)).toBe('jardin');
  });

  it('keeps typing that goes on while an earlier search reaches the URL', async () => {
    const { box, reports } = setUp('', 600);
    await typeSlowly(box, 'spa', 100);
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 50));
    expect(reports).toEqual(['spa']);
    // The URL is still on its way when the person goes on typing.
    await typeSlowly(box, ' hotel', 120);
    expect(box.value).toBe('spa hotel');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 600));
    expect(box.value).toBe('spa hotel');
    expect(reports).toEqual(['spa', 'spa hotel']);
  });

  it('keeps what is being typed when a change made elsewhere arrives late', async () => {
    const { box, reports } = setUp('spa', 0);
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: '' } });
    await typeSlowly(box, 'atar', 150);
    // 'Quitar filtros' pressed before the person started typing reaches the URL only now.
    fireEvent.click(screen.getByRole('button', { name: 'Quitar filtros' }));
    await typeSlowly(box, 'decer', 150);
    expect(box.value).toBe('atardecer');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 50));
    expect(box.value).toBe('atardecer');
    expect(reports.at(-1)).toBe('atardecer');
  });

  it("takes a change made elsewhere ('Quitar filtros') into the box", async () => {
    const { box } = setUp('piscina', 0);
    expect(box.value).toBe('piscina');
    fireEvent.click(screen.getByRole('button', { name: 'Quitar filtros' }));
    expect(box.value).toBe('');
  });
});
