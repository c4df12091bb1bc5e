import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { WorkingIndicator } from './working-indicator.tsx';

const spinnerShown = () => screen.queryByRole('status') !== null;

describe('WorkingIndicator', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows during the work and hides 1000 ms after it ends', () => {
    const view = render(<WorkingIndicator active={false} />);
    expect(spinnerShown()).toBe(false);
    view.rerender(<WorkingIndicator active />);
    expect(spinnerShown()).toBe(true);
    view.rerender(<WorkingIndicator active={false} />);
    act(() => vi.advanceTimersByTime(999));
    expect(spinnerShown()).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(spinnerShown()).toBe(false);
  });

  it('hides at once when the delay is 0', () => {
    const view = render(<WorkingIndicator active hideDelayMs={0} />);
    expect(spinnerShown()).toBe(true);
    view.rerender(<WorkingIndicator active={false} hideDelayMs={0} />);
    expect(spinnerShown()).toBe(false);
  });

  it('stays up without a gap when new work starts during the delay, and restarts the delay after it', () => {
    const view = render(<WorkingIndicator active />);
    view.rerender(<WorkingIndicator active={false} />);
    act(() => vi.advanceTimersByTime(600));
    view.rerender(<WorkingIndicator active />);
    act(() => vi.advanceTimersByTime(600));
    expect(spinnerShown()).toBe(true);
    view.rerender(<WorkingIndicator active={false} />);
    act(() => vi.advanceTimersByTime(600));
    expect(spinnerShown()).toBe(true);
    act(() => vi.advanceTimersByTime(400));
    expect(spinnerShown()).toBe(false);
  });
});
