import { useEffect, useState } from 'react';
import { Spinner } from './spinner.tsx';

/** The working spinner stays up 1000 ms after the work ends, so quick actions do not flicker. */
export const WORKING_HIDE_DELAY_MS = 1000;

/**
 * True while `active`, and for `hideDelayMs` after it turns false (0 hides at once). Work that starts again
 * within the delay keeps it up without a gap.
 */
export function useLingeringFlag(active: boolean, hideDelayMs: number = WORKING_HIDE_DELAY_MS): boolean {
  const [lingering, setLingering] = useState(false);
  const [wasActive, setWasActive] = useState(active);
  if (active !== wasActive) {
    // Derived from the previous render's input, so it is adjusted during render rather than in an effect.
    setWasActive(active);
    setLingering(!active && hideDelayMs > 0);
  }
  useEffect(() => {
    if (!lingering) return;
    const timer = setTimeout(() => setLingering(false), hideDelayMs);
    return () => clearTimeout(timer);
  }, [lingering, hideDelayMs]);
  return active || lingering;
}

/** The app's working spinner: shown while `active` and hidden `hideDelayMs` after. */
export function WorkingIndicator({
  active,
  hideDelayMs = WORKING_HIDE_DELAY_MS,
}: {
  active: boolean;
  hideDelayMs?: number;
}) {
  const visible = useLingeringFlag(active, hideDelayMs);
  return (
    <span className="working-indicator" aria-live="polite">
      {visible && <Spinner size="small" label="Trabajando…" />}
    </span>
  );
}
