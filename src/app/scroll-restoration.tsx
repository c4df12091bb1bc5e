import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

const positions = new Map<string, number>();
/** How long a restored position waits for the page to grow tall enough (a list read again, late chunks). */
const RESTORE_WAIT_MS = 2000;

/**
 * Navigation scrolls to the top unless a saved position is restored (back/forward). A REPLACE on the same
 * path (a filter written to the URL) is not a new screen: the page stays where it is.
 * Each screen's position is recorded as it scrolls (once a frame) and when a click or a key may leave it, not
 * 350 ms after scrolling stopped, which lost the last scroll before a quick click. The browser's own
 * restoration is off: it scrolled the screen being left on Back, before this one's content was there. A
 * position the page is not yet tall enough for is kept trying until it is, the person scrolls, or two seconds
 * pass.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const previousPath = useRef<string | null>(null);

  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
  }, []);

  useEffect(() => {
    const samePath = previousPath.current === location.pathname;
    previousPath.current = location.pathname;
    const saved = positions.get(location.key);
    let frame = 0;
    let restoring = false;
    const stopRestoring = () => {
      restoring = false;
      cancelAnimationFrame(frame);
    };
    if (navigationType === 'POP' && saved !== undefined) {
      const until = performance.now() + RESTORE_WAIT_MS;
      restoring = true;
      const restore = () => {
        window.scrollTo(0, saved);
        if (Math.abs(window.scrollY - saved) < 1 || performance.now() > until) restoring = false;
        else frame = requestAnimationFrame(restore);
      };
      restore();
    } else if (!(navigationType === 'REPLACE' && samePath)) {
      window.scrollTo(0, 0);
    }
    const here = `${location.pathname}${location.search}`;
    const save = () => {
      // While restoring, the page's own growth is not the person's position; nor is the clamp of a screen
      // being left (the URL has moved on before this listener is removed).
      if (restoring || `${window.location.pathname}${window.location.search}` !== here) return;
      positions.set(location.key, window.scrollY);
    };
    // Read once a frame, when the frame lays the page out anyway: reading the position in the scroll event,
    // right after the grid has re-rendered its rows for it, made the browser lay the page out twice a frame.
    let saveFrame = 0;
    const onScroll = () => {
      if (!saveFrame) {
        saveFrame = requestAnimationFrame(() => {
          saveFrame = 0;
          save();
        });
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    // The person taking over stops the restoration; a click or a key may leave the screen, so the position
    // is saved then too.
    const onInput = () => {
      stopRestoring();
      save();
    };
    const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
    for (const input of inputs) window.addEventListener(input, onInput, { passive: true, capture: true });
    return () => {
      stopRestoring();
      cancelAnimationFrame(saveFrame);
      window.removeEventListener('scroll', onScroll);
      for (const input of inputs) window.removeEventListener(input, onInput, { capture: true });
    };
  }, [location.key, location.pathname, location.search, navigationType]);
  return null;
}
