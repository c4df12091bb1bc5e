import type { RealtimeChannel, RealtimeClient, REALTIME_SUBSCRIBE_STATES } from '@supabase/realtime-js';
import { realtime } from './supabase.ts';

export type ChannelStatus = `${REALTIME_SUBSCRIBE_STATES}`;

/**
 * Opens and subscribes a Realtime channel, the way `supabase.channel(name).on(…).subscribe(onStatus)` does,
 * once realtime-js has loaded (on first use: it is not part of the files screen's initial JS). `configure`
 * adds the listeners; `onStatus` gets the Realtime client too, for `setAuth()`. Returns the cleanup for an
 * effect: it removes the channel, or stops it from opening if realtime-js is still loading.
 */
export function openRealtimeChannel(
  name: string,
  configure: (channel: RealtimeChannel) => RealtimeChannel,
  onStatus?: (status: ChannelStatus, client: RealtimeClient, error?: Error) => void,
): () => void {
  let closed = false;
  let opened: { client: RealtimeClient; channel: RealtimeChannel } | undefined;
  realtime().then(
    (client) => {
      if (closed) return;
      const channel = configure(client.channel(name));
      channel.subscribe((status, error) => onStatus?.(status, client, error));
      opened = { client, channel };
    },
    // realtime-js could not be downloaded (the network is down): the next mount tries again.
    (error: unknown) => console.error(error),
  );
  return () => {
    closed = true;
    if (opened) void opened.client.removeChannel(opened.channel);
  };
}
