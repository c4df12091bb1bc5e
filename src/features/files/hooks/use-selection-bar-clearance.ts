import { useLayoutEffect, useState, type RefObject } from 'react';

/** Room kept between the stuck selection bar and what floats under it. */
const GAP = 8;

/**
 * How far from the window's top something fixed must start to stay clear of the selection bar stuck there while
 * anything is selected: the bar's own height, measured, since on a phone its count and buttons make it taller
 * than on a desktop. 8 px while nothing is selected.
 */
export function useSelectionBarClearance(anySelected: boolean, near: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const bar = anySelected ? near.current?.closest('.files-page')?.querySelector<HTMLElement>('.selection-bar') : null;
    if (!bar) return;
    // A ResizeObserver reports the bar's size as soon as it starts observing, and again whenever it changes.
    const observer = new ResizeObserver(() => setHeight(bar.getBoundingClientRect().height));
    observer.observe(bar);
    return () => observer.disconnect();
  }, [anySelected, near]);
  return anySelected && height > 0 ? height + GAP : GAP;
}
