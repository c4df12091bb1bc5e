import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook } from '@testing-library/react';
import { useFilesKeyboard } from './use-files-keyboard.ts';

const press = (key: string, target: EventTarget = document.body) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));

afterEach(() => document.body.replaceChildren());

describe('useFilesKeyboard', () => {
  it('clears the selection with Escape', () => {
    const onEscape = vi.fn();
    renderHook(() => useFilesKeyboard({ onEscape }));
    press('Escape');
    expect(onEscape).toHaveBeenCalledTimes(1);
  });

  it('leaves Escape to a field being typed in and to an open dialog', () => {
    const onEscape = vi.fn();
    renderHook(() => useFilesKeyboard({ onEscape }));
    const field = document.body.appendChild(document.createElement('input'));
    press('Escape', field);
    field.remove();
    document.body.appendChild(document.createElement('div')).setAttribute('role', 'dialog');
    press('Escape');
    expect(onEscape).not.toHaveBeenCalled();
  });

  it('does nothing on Escape with nothing selected, and calls the latest handler', () => {
    const first = vi.fn();
    const { rerender } = renderHook(({ onEscape }) => useFilesKeyboard({ onEscape }), {
      initialProps: { onEscape: null as (() => void) | null },
    });
    press('Escape');
    rerender({ onEscape: first });
    press('Escape');
    expect(first).toHaveBeenCalledTimes(1);
  });

  it("goes to the search field with '/'", () => {
    renderHook(() => useFilesKeyboard({ onEscape: null }));
    const search = document.body.appendChild(document.createElement('input'));
    search.id = 'files-search';
    press('/');
    expect(document.activeElement).toBe(search);
  });
});
