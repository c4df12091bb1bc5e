import type pg from 'pg';
import { LogicalReplicationService, type Pgoutput } from 'pg-logical-replication';
import { OUTPUT_SETTINGS, TemporarySlotPgoutput } from './pgoutput.ts';
import { toJsonValue, type TypeCatalog, type TypeInfo } from './values.ts';
import { OrderedDelivery } from './ordered-delivery.ts';
import { SliceMarks } from './timeline.ts';

/**
 * Change capture for Realtime: a logical replication stream with the built-in `pgoutput` plugin on the
 * `supabase_realtime` publication, exactly the set of tables Supabase Realtime watches (hosted Realtime
 * uses wal2json, which embedded Postgres lacks), plus inserts into realtime.messages (broadcast from the
 * database, `realtime.send`), which dispatch.ts delivers as broadcasts.
 *
 * Why logical replication rather than triggers: it needs nothing installed on the app's tables (a
 * migration's `alter publication … add table` is all it takes, as on Supabase), it delivers whole
 * transactions in commit order with their commit timestamp, and the old values it carries follow the
 * table's REPLICA IDENTITY exactly as Supabase's do (primary key only unless FULL). Triggers would add
 * work to every write of the app and would have to re-implement replica identity by hand.
 *
 * The slot is TEMPORARY and created on the replication connection itself, so Postgres drops it when the
 * stream ends for any reason (stop, crash, kill -9): nothing retains WAL while the stack is down. The
 * price is that changes committed while the stream is down are not replayed, which is also what hosted
 * Realtime promises (delivery is best effort; clients refetch on join).
 */

export interface ChangeColumn {
  name: string;
  /** pg_type.typname, as Realtime reports it (`int8`, `text`, `_text`, a domain's or enum's own name). */
  type: string;
  typeOid: number;
}

export interface CapturedChange {
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  schema: string;
  table: string;
  relationOid: number;
  /** `YYYY-MM-DDTHH:MM:SS.mmmZ`, the commit time of the transaction. */
  commitTimestamp: string;
  columns: ChangeColumn[];
  /** The table's primary-key columns; empty when it has none. */
  primaryKey: string[];
  /** JSON-typed values (see values.ts); null for DELETE. */
  record: Record<string, unknown> | null;
  /** Old values the WAL carries: the replica identity (primary key by default, all columns when FULL). */
  oldRecord: Record<string, unknown> | null;
  /** The same values in Postgres's text form, for primary-key lookups and typed filter comparisons. */
  recordText: Record<string, string | null> | null;
  oldRecordText: Record<string, string | null> | null;
}

type TextTuple = Record<string, string | null | undefined>;

const SLOT_PREFIX = 'local_stack_realtime_';
const RECONNECT_DELAY_MS = 1000;
/** Changes of one transaction handed to the subscribers at a time (a bulk load arrives as many batches). */
const DELIVERY_BATCH = 1000;

export class ChangeStream {
  private service: LogicalReplicationService | undefined;
  private readonly types = new Map<number, TypeInfo>();
  private readonly primaryKeys = new Map<number, string[]>();
  private pending: CapturedChange[] = [];
  private commitTime = '';
  /** When the transaction's BEGIN, or the slice before, reached the stack (for the stages' timeline). */
  private sliceReceivedAt = 0;
  private transactionId = 0;
  /** Whether the transaction being decoded has had a slice queued (its first waits until it is visible). */
  private sliceQueued = false;
  private readonly deliveries: OrderedDelivery;
  private stopping = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly options: {
      adminDbUrl: string;
      /** For catalog look-ups (types, primary keys); never the replication connection. */
      adminPool: pg.Pool;
      /** Decides who may see a slice of a transaction; the function it gives delivers it. */
      decide: (changes: CapturedChange[]) => Promise<() => void>;
      /** The stream was lost (the database restarted, or its connection dropped); a reconnect follows. */
      onInterrupted?: () => void;
      log: (message: string) => void;
    },
  ) {
    this.deliveries = new OrderedDelivery({ pool: options.adminPool, decide: options.decide, log: options.log });
  }

  /** True while changes are being captured; a subscription confirmed meanwhile would silently miss some. */
  get streaming(): boolean {
    return this.running;
  }

  get typeCatalog(): TypeCatalog {
    return this.types;
  }

  /** Resolves once the slot exists and the stream runs, so every later commit is captured. */
  async start(): Promise<void> {
    await this.loadTypes();
    // Slots a previous version of this stack left behind (persistent ones) would hold WAL forever.
    await this.options.adminPool.query(
      `select pg_drop_replication_slot(slot_name) from pg_replication_slots
        where slot_name like $1 and not active and not temporary`,
      [`${SLOT_PREFIX}%`],
    );
    await this.connect();
  }

  private connect(): Promise<void> {
    const slot = `${SLOT_PREFIX}${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const service = new LogicalReplicationService(
      { connectionString: this.options.adminDbUrl, options: OUTPUT_SETTINGS },
      { acknowledge: { auto: true, timeoutSeconds: 10 }, flowControl: { enabled: true } },
    );
    this.service = service;
    // An exception escaping the handler would stall the flow-controlled stream for good: log it instead.
    service.on('data', (_lsn: string, message: Pgoutput.Message) =>
      this.handle(message).catch((error: unknown) =>
        this.options.log(`could not deliver a change: ${(error as Error).stack ?? String(error)}`),
      ),
    );
    service.on('error', (error: Error) => {
      if (!this.stopping) this.options.log(`replication stream error: ${error.message}`);
    });
    const plugin = new TemporarySlotPgoutput({
      protoVersion: 1,
      publicationNames: ['supabase_realtime', 'supabase_realtime_messages_publication'],
    });
    return new Promise<void>((resolve, reject) => {
      let started = false;
      service.once('start', () => {
        started = true;
        this.running = true;
        resolve();
      });
      // subscribe() settles only when the stream ends; it runs for the life of the service.
      service
        .subscribe(plugin, slot)
        .catch((error: unknown) => {
          if (!started) reject(error as Error);
          else if (!this.stopping) this.options.log(`replication stopped: ${(error as Error).message}`);
        })
        .finally(() => {
          // A lost stream's service keeps its standby-status interval until stopped: stop it, or every
          // database restart would leave a timer behind (and keep the process alive).
          if (!this.stopping) void service.stop().catch(() => {});
          if (started && !this.stopping && this.service === service) this.scheduleReconnect();
        });
    });
  }

  private scheduleReconnect() {
    this.options.log('replication stream ended; reconnecting (changes meanwhile are not replayed)');
    this.pending = [];
    this.running = false;
    this.options.onInterrupted?.();
    this.reconnectTimer = setTimeout(() => {
      this.connect().catch((error: unknown) => {
        this.options.log(`replication reconnect failed: ${(error as Error).message}`);
        if (!this.stopping) this.scheduleReconnect();
      });
    }, RECONNECT_DELAY_MS);
    this.reconnectTimer.unref();
  }

  private async loadTypes(): Promise<void> {
    const { rows } = await this.options.adminPool.query<{
      oid: number;
      typname: string;
      typtype: string;
      typbasetype: number;
      element: number;
      typdelim: string;
    }>(
      `select oid::int, typname, typtype::text, typbasetype::int,
              case when typcategory = 'A' then typelem::int else 0 end as element, typdelim::text
         from pg_type`,
    );
    for (const row of rows) {
      this.types.set(row.oid, {
        oid: row.oid,
        name: row.typname,
        kind: row.typtype,
        baseOid: row.typbasetype,
        elementOid: row.element,
        delimiter: row.typdelim,
      });
    }
  }

  private async onRelation(relation: Pgoutput.MessageRelation): Promise<void> {
    // Types created after start (an enum in a later migration) are looked up when first seen.
    if (relation.columns.some((column) => !this.types.has(column.typeOid))) await this.loadTypes();
    // pgoutput flags every column as "key" under REPLICA IDENTITY FULL; Realtime needs the real primary key.
    const { rows } = await this.options.adminPool.query<{ attname: string }>(
      `select a.attname
         from pg_index i
         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = $1 and i.indisprimary
        order by array_position(i.indkey::int2[], a.attnum)`,
      [relation.relationOid],
    );
    this.primaryKeys.set(
      relation.relationOid,
      rows.map((row) => row.attname),
    );
  }

  private async handle(message: Pgoutput.Message): Promise<void> {
    switch (message.tag) {
      case 'begin':
        this.pending = [];
        this.sliceQueued = false;
        // Microseconds since the Unix epoch; Realtime reports milliseconds.
        this.commitTime = new Date(Number((message.commitTime as bigint) / 1000n)).toISOString();
        this.transactionId = message.xid;
        this.sliceReceivedAt = Date.now();
        return;
      case 'relation':
        return this.onRelation(message);
      case 'insert':
      case 'update':
      case 'delete':
        this.pending.push(this.capture(message));
        // pgoutput (without streaming) sends a transaction only once it has committed, so a large one is
        // delivered in batches as it is decoded: buffering it whole until its COMMIT held every row of a
        // 1M-row bulk load in memory (the stack died at Node's 4 GB heap limit).
        if (this.pending.length >= DELIVERY_BATCH) await this.deliverPending();
        return;
      case 'commit':
        await this.deliverPending();
        return;
      default:
        return;
    }
  }

  /** Queues the pending changes (a slice of the transaction being decoded) for their decision and delivery. */
  private async deliverPending(): Promise<void> {
    const changes = this.pending;
    this.pending = [];
    if (changes.length === 0) return;
    const marks = new SliceMarks(Date.parse(this.commitTime), this.sliceReceivedAt, changes.length);
    this.sliceReceivedAt = Date.now();
    const firstOf = this.sliceQueued ? null : this.transactionId;
    this.sliceQueued = true;
    await this.deliveries.add(changes, firstOf, marks);
  }

  private capture(message: Pgoutput.MessageInsert | Pgoutput.MessageUpdate | Pgoutput.MessageDelete): CapturedChange {
    const relation = message.relation;
    const primaryKey = this.primaryKeys.get(relation.relationOid) ?? [];
    const columns = relation.columns.map((column) => ({
      name: column.name,
      type: this.types.get(column.typeOid)?.name ?? 'text',
      typeOid: column.typeOid,
    }));
    const newTuple = message.tag === 'delete' ? null : (message.new as TextTuple);
    let oldTuple: TextTuple | null = null;
    if (message.tag !== 'insert') {
      oldTuple = (message.old ?? message.key) as TextTuple | null;
      // Default replica identity and an unchanged key: the WAL has no old tuple, the key is the new one's.
      if (!oldTuple && newTuple) oldTuple = pick(newTuple, relation.keyColumns);
    }
    const textOf = (tuple: TextTuple | null) =>
      tuple
        ? (Object.fromEntries(Object.entries(tuple).filter(([, value]) => value !== undefined)) as Record<
            string,
            string | null
          >)
        : null;
    const jsonOf = (tuple: Record<string, string | null> | null) =>
      tuple
        ? Object.fromEntries(
            columns
              .filter((column) => column.name in tuple)
              .map((column) => [column.name, toJsonValue(this.types, column.typeOid, tuple[column.name])]),
          )
        : null;
    const recordText = textOf(newTuple);
    const oldRecordText = textOf(oldTuple);
    return {
      type: message.tag.toUpperCase() as CapturedChange['type'],
      schema: relation.schema,
      table: relation.name,
      relationOid: relation.relationOid,
      commitTimestamp: this.commitTime,
      columns,
      primaryKey,
      record: jsonOf(recordText),
      oldRecord: jsonOf(oldRecordText),
      recordText,
      oldRecordText,
    };
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.reconnectTimer);
    // Closing the replication connection drops the temporary slot with it.
    await this.service?.stop().catch(() => {});
    // Decisions under way still use their connections: they end before those are closed.
    await this.deliveries.settled();
  }
}

function pick(tuple: TextTuple, keys: string[]): TextTuple {
  return Object.fromEntries(keys.filter((key) => key in tuple).map((key) => [key, tuple[key]]));
}
