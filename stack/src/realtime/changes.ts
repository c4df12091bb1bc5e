import pg from 'pg';
import { LogicalReplicationService, PgoutputPlugin, type Pgoutput } from 'pg-logical-replication';

/**
 * Change capture for Realtime: a logical replication stream with the built-in `pgoutput` plugin on the
 * `supabase_realtime` publication, exactly the set of tables Supabase Realtime watches (hosted Realtime
 * uses wal2json, which embedded Postgres lacks). Logical replication rather than triggers because it
 * needs nothing installed on the app's tables, follows `alter publication … add table` by itself,
 * delivers in commit order with the commit timestamp, and carries replica-identity semantics (old
 * values = primary key unless REPLICA IDENTITY FULL) straight from the WAL.
 */

export interface CapturedChange {
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  schema: string;
  table: string;
  relationOid: number;
  commitTimestamp: string;
  columns: Array<{ name: string; type: string }>;
  keyColumns: string[];
  record: Record<string, unknown> | null;
  oldRecord: Record<string, unknown> | null;
}

const SLOT_PREFIX = 'local_stack_realtime_';

/** JSON-friendly values: timestamps as ISO strings, everything else as node-postgres parsed it. */
function toJsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  if (Array.isArray(value)) return value.map(toJsonValue);
  return value;
}

function toJsonRecord(row: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!row) return null;
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, toJsonValue(value)]));
}

export class ChangeStream {
  private service: LogicalReplicationService | undefined;
  private readonly slot = `${SLOT_PREFIX}${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  private readonly typeNames = new Map<number, string>();
  private pending: CapturedChange[] = [];
  private commitTime = '';
  private stopping = false;

  constructor(
    private readonly adminDbUrl: string,
    private readonly onCommit: (changes: CapturedChange[]) => Promise<void>,
    private readonly log: (message: string) => void,
  ) {}

  async start(): Promise<void> {
    const db = new pg.Client({ connectionString: this.adminDbUrl });
    await db.connect();
    try {
      // Slots of a stack that was killed keep WAL forever; nobody else uses our prefix.
      await db.query(
        `select pg_drop_replication_slot(slot_name) from pg_replication_slots
          where slot_name like $1 and not active`,
        [`${SLOT_PREFIX}%`],
      );
      await db.query(`select pg_create_logical_replication_slot($1, 'pgoutput')`, [this.slot]);
      const types = await db.query<{ oid: number; typname: string }>('select oid::int, typname from pg_type');
      for (const row of types.rows) this.typeNames.set(row.oid, row.typname);
    } finally {
      await db.end();
    }

    this.service = new LogicalReplicationService(
      { connectionString: this.adminDbUrl },
      { acknowledge: { auto: true, timeoutSeconds: 10 }, flowControl: { enabled: true } },
    );
    // An exception escaping the handler would stall the flow-controlled stream for good: log it instead.
    this.service.on('data', (_lsn: string, message: Pgoutput.Message) =>
      this.handle(message).catch((error: unknown) =>
        this.log(`could not deliver a change: ${(error as Error).stack ?? String(error)}`),
      ),
    );
    this.service.on('error', (error: Error) => {
      if (!this.stopping) this.log(`replication stream error: ${error.message}`);
    });
    const plugin = new PgoutputPlugin({ protoVersion: 1, publicationNames: ['supabase_realtime'] });
    // subscribe() resolves only when the stream ends; it runs for the life of the service.
    void this.service.subscribe(plugin, this.slot).catch((error: unknown) => {
      if (!this.stopping) this.log(`replication stopped: ${(error as Error).message}`);
    });
  }

  private async handle(message: Pgoutput.Message): Promise<void> {
    switch (message.tag) {
      case 'begin':
        this.pending = [];
        // pgoutput commit times are microseconds since the Unix epoch once decoded.
        this.commitTime = new Date(Number((message.commitTime as bigint) / 1000n)).toISOString();
        return;
      case 'insert':
      case 'update':
      case 'delete': {
        const relation = message.relation;
        const columns = relation.columns.map((c) => ({ name: c.name, type: this.typeNames.get(c.typeOid) ?? 'text' }));
        const keyOnly = (row: Record<string, unknown> | null) =>
          row ? Object.fromEntries(relation.keyColumns.map((k) => [k, row[k]])) : null;
        const old =
          message.tag === 'insert'
            ? null
            : toJsonRecord(message.old ?? message.key ?? (message.tag === 'update' ? keyOnly(message.new) : null));
        this.pending.push({
          type: message.tag.toUpperCase() as CapturedChange['type'],
          schema: relation.schema,
          table: relation.name,
          relationOid: relation.relationOid,
          commitTimestamp: this.commitTime,
          columns,
          keyColumns: relation.keyColumns,
          record: message.tag === 'delete' ? null : toJsonRecord(message.new),
          oldRecord: old,
        });
        return;
      }
      case 'commit': {
        const changes = this.pending;
        this.pending = [];
        if (changes.length > 0) await this.onCommit(changes);
        return;
      }
      default:
        return;
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.service?.stop().catch(() => {});
    const db = new pg.Client({ connectionString: this.adminDbUrl });
    await db.connect().catch(() => {});
    try {
      for (let attempt = 0; attempt < 20; attempt++) {
        try {
          await db.query(`select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1`, [
            this.slot,
          ]);
          break;
        } catch {
          // Still active for a moment after the stream closes.
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    } finally {
      await db.end().catch(() => {});
    }
  }
}
