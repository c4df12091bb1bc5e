import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

const SCROLL_COMMIT_DELAY_MS = 350;
const positions = new Map<string, number>();

/**
 * Navigation scrolls to the top unless a saved position is restored (back/forward); a
 * position is saved 350 ms after scrolling stops. A REPLACE on the same path (a filter written to the URL)
 * is not a new screen: the page stays where it is.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const previousPath = useRef<string | null>(null);

  useEffect(() => {
    const samePath = previousPath.current === location.pathname;
    previousPath.current = location.pathname;
    const saved = positions.get(location.key);
    if (navigationType === 'POP' && saved !== undefined) window.scrollTo(0, saved);
    else if (!(navigationType === 'REPLACE' && samePath)) window.scrollTo(0, 0);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      clearTimeout(timer);
      timer = setTimeout(() => positions.set(location.key, window.scrollY), SCROLL_COMMIT_DELAY_MS);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
    };
  }, [location.key, location.pathname, navigationType]);
  return null;
}
