import type pg from 'pg';
import type { CapturedChange } from './changes.ts';
import type { SliceMarks } from './timeline.ts';
import { waitForCommitVisible } from './visibility.ts';

/**
 * Transactions (or slices of one) whose access is decided at once. One at a time, a change waited for every
 * transaction decoded before it, each a few round trips to a Postgres busy with everyone's requests; a few at
 * a time overlap those waits while deliveries keep commit order. They run on Realtime's own connections
 * (realtime/index.ts), so they take none from the requests.
 */
export const DECISIONS_AT_ONCE = 4;

/**
 * Decides the slices of decoded transactions a few at a time and delivers them strictly in commit order: each
 * slice's decision waits until fresh snapshots see its transaction and every earlier one (the subscribers'
 * checks select the changed rows, and a tag's check reads its file, which an earlier transaction may have
 * inserted); each delivery waits for the one before.
 */
export class OrderedDelivery {
  /** Settles once the newest transaction is visible to fresh snapshots (and, before it, every earlier one). */
  private visible: Promise<void> = Promise.resolve();
  /** Settles once the newest decided slice has been delivered (or failed); deliveries follow this chain. */
  private delivered: Promise<void> = Promise.resolve();
  /** Slices being decided or waiting to be delivered, oldest first. */
  private readonly undelivered: Array<Promise<void>> = [];

  constructor(
    private readonly options: {
      /** Where visibility is checked: Realtime's own connections. */
      pool: pg.Pool;
      /** Decides who may see a slice of a transaction; the function it gives delivers it. */
      decide: (changes: CapturedChange[]) => Promise<() => void>;
      log: (message: string) => void;
    },
  ) {}

  /**
   * Queues a slice: `firstOf` is its transaction's id when it is the transaction's first slice (whose
   * visibility is waited for), null for the later slices of a large one. Returns once fewer than
   * DECISIONS_AT_ONCE slices are undelivered, which holds the stream back (flow control) while Realtime is
   * behind rather than buffering the WAL in memory.
   */
  async add(changes: CapturedChange[], firstOf: number | null, marks: SliceMarks): Promise<void> {
    if (firstOf !== null) {
      this.visible = this.visible.then(async () => {
        const visible = await waitForCommitVisible(this.options.pool, firstOf).catch(() => false);
        if (!visible) this.options.log(`transaction ${firstOf} is still not visible; delivering its changes anyway`);
      });
    }
    const decision = this.visible.then(async () => {
      marks.mark();
      const deliver = await this.options.decide(changes);
      marks.mark();
      return deliver;
    });
    // Its failure is reported by the delivery chain, which may reach it only after earlier deliveries.
    decision.catch(() => {});
    const delivery = this.delivered
      .then(() => decision)
      .then((deliver) => {
        marks.mark();
        deliver();
        marks.mark();
        marks.publish();
      })
      .catch((error: unknown) =>
        this.options.log(`could not deliver a change: ${(error as Error).stack ?? String(error)}`),
      );
    this.delivered = delivery;
    this.undelivered.push(delivery);
    void delivery.then(() => this.undelivered.shift());
    if (this.undelivered.length >= DECISIONS_AT_ONCE) await this.undelivered[0];
  }

  /** Settles once every queued slice has been delivered (or failed). */
  settled(): Promise<void> {
    return this.delivered;
  }
}
