import type { RealtimeChannel } from '@supabase/supabase-js';
import type { Metrics } from './metrics.ts';
import type { Person } from './staff.ts';

/**
 * The app's live channel, held by `count` of the signed-in people: postgres_changes on the tables the app
 * watches, and the same rule for 'Reconectando…' (the channel errored or timed out, until it is subscribed
 * again). Each change's delivery time is measured from its commit timestamp.
 */
const WATCHED_TABLES = ['files', 'file_tags', 'collection_files', 'tags', 'tag_categories', 'collections', 'staff'];

export interface Subscriber {
  person: Person;
  channel: RealtimeChannel;
  /** The state the app's banner follows. */
  reconnecting: boolean;
  /** Seconds into the run when the banner would have appeared, and when it went. */
  shown: Array<{ from: number; to: number | null }>;
  changes: number;
  /** Changes delivered after the last time the channel came back (proof it rejoined for real). */
  changesSinceRejoin: number;
}

export async function subscribe(people: Person[], metrics: Metrics, runStart: number): Promise<Subscriber[]> {
  const now = () => (Date.now() - runStart) / 1000;
  const joined = people.map(
    (person) =>
      new Promise<Subscriber>((resolve, reject) => {
        const channel = WATCHED_TABLES.reduce(
          (watching, table) =>
            watching.on('postgres_changes', { event: '*', schema: 'public', table }, (payload) => {
              subscriber.changes += 1;
              subscriber.changesSinceRejoin += 1;
              const committed = Date.parse(payload.commit_timestamp);
              if (Number.isFinite(committed)) metrics.record('realtime change delivered', Date.now() - committed);
            }),
          person.client.channel('app-cache-sync'),
        );
        const subscriber: Subscriber = {
          person,
          channel,
          reconnecting: false,
          shown: [],
          changes: 0,
          changesSinceRejoin: 0,
        };
        let first = true;
        channel.subscribe((status, error) => {
          const lost = status === 'CHANNEL_ERROR' || status === 'TIMED_OUT';
          if (lost && !subscriber.reconnecting) subscriber.shown.push({ from: now(), to: null });
          if (!lost && subscriber.reconnecting && status === 'SUBSCRIBED') {
            subscriber.shown.at(-1)!.to = now();
            subscriber.changesSinceRejoin = 0;
          }
          if (status === 'SUBSCRIBED' || lost) subscriber.reconnecting = lost;
          if (status === 'SUBSCRIBED') {
            // As the app does: the join can race the session token, so the token is pushed again.
            void person.client.realtime.setAuth();
            if (first) resolve(subscriber);
            first = false;
          } else if (first && lost) {
            reject(error ?? new Error(`${person.name}'s channel: ${status}`));
          }
        });
      }),
  );
  return Promise.all(joined);
}
