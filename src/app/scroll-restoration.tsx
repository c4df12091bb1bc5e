import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

const SCROLL_COMMIT_DELAY_MS = 350;
const positions = new Map<string, number>();

/**
 * Spec section 2: navigation scrolls to the top unless a saved position is restored (back/forward); a
 * position is saved 350 ms after scrolling stops.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    const saved = positions.get(location.key);
    window.scrollTo(0, navigationType === 'POP' && saved !== undefined ? saved : 0);
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
  }, [location.key, navigationType]);
  return null;
}
