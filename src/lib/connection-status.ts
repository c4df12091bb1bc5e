import { useSyncExternalStore } from 'react';

/**
 * Whether the app has lost its live connection to the server: the browser says it is offline, or the realtime
 * channel the app keeps open errored or timed out (Realtime lost the database, the network dropped). Set by
 * the realtime sync, read by the banner in the layout; it clears when the channel is subscribed again.
 */
let channelLost = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export function setLiveChannelLost(lost: boolean) {
  if (channelLost === lost) return;
  channelLost = lost;
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const isLost = () => channelLost || !navigator.onLine;

export function useConnectionLost(): boolean {
  return useSyncExternalStore(subscribe, isLost, () => false);
}
