import type { RealtimeChannel, RealtimeClient, REALTIME_SUBSCRIBE_STATES } from '@supabase/supabase-js';
import { supabase } from './supabase.ts';

export type ChannelStatus = `${REALTIME_SUBSCRIBE_STATES}`;

/**
 * Opens and subscribes a Realtime channel: `configure` adds the listeners; `onStatus` gets the Realtime
 * client too, for `setAuth()`. Returns the cleanup for an effect, which removes the channel.
 */
export function openRealtimeChannel(
  name: string,
  configure: (channel: RealtimeChannel) => RealtimeChannel,
  onStatus?: (status: ChannelStatus, client: RealtimeClient, error?: Error) => void,
): () => void {
  const channel = configure(supabase.channel(name));
  channel.subscribe((status, error) => onStatus?.(status, supabase.realtime, error));
  return () => void supabase.removeChannel(channel);
}
