import diagnostics from 'node:diagnostics_channel';

/**
 * Where a change's time goes inside the stack, from its commit to its frames leaving for the sockets, published
 * for every slice of a transaction Realtime delivers (on `node:diagnostics_channel`, so nothing is built unless
 * something listens: the load benchmark does, to say which stage grows under load). All in ms.
 */
export interface SliceTimeline {
  /** Changes in the slice: each of them waited as long as the slice. */
  changes: number;
  /** From the commit's timestamp to its BEGIN reaching the stack (the WAL sender and the stream). */
  stream: number;
  /** Receiving and decoding the slice's rows (for a later slice of a large transaction: since the one before). */
  decode: number;
  /** Until fresh snapshots see the commit, after every earlier one (the subscribers' checks need that). */
  visible: number;
  /** Deciding who may see each change: the tables' catalog and the subscribers' checks. */
  decide: number;
  /** Decided, waiting for the earlier slices' frames to go first. */
  queued: number;
  /** Writing the frames to every subscriber's socket. */
  deliver: number;
}

export const SLICE_TIMELINE_CHANNEL = 'mediateca.realtime.slice';
const channel = diagnostics.channel(SLICE_TIMELINE_CHANNEL);

/** Marks of one slice's stages (Date.now(), as the commit timestamp is wall-clock time). */
export class SliceMarks {
  private readonly marks: number[];

  constructor(
    private readonly committedAt: number,
    receivedAt: number,
    private readonly changes: number,
  ) {
    this.marks = [receivedAt, Date.now()];
  }

  /** The next stage ended now: visible, decided, delivery started, delivered — in that order. */
  mark(): void {
    this.marks.push(Date.now());
  }

  publish(): void {
    if (!channel.hasSubscribers) return;
    const [received, decoded, visible, decided, started, delivered] = this.marks as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    channel.publish({
      changes: this.changes,
      stream: Math.max(0, received - this.committedAt),
      decode: decoded - received,
      visible: visible - decoded,
      decide: decided - visible,
      queued: started - decided,
      deliver: delivered - started,
    } satisfies SliceTimeline);
  }
}
