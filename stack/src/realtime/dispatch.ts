import type pg from 'pg';
import { evaluateAccess, identityKey, type AccessVerdict, type Identity } from './access.ts';
import type { CapturedChange } from './changes.ts';
import { matchesFilter } from './filters.ts';
import { encodeBroadcast, encodeWithPayloadJson, type UserBroadcast, type Vsn } from './protocol.ts';
import type { Channel, Client, Sessions } from './session.ts';

/**
 * Fan-out to the joined channels: broadcasts (from sockets, the REST API and the database) and
 * postgres_changes, each change checked against each subscriber's privileges and RLS in Postgres
 * (access.ts) before delivery. A frame is encoded once per protocol version (or per role for changes).
 * Presence diffs are sent by Sessions itself (session.ts), which this module only reads.
 */

/** Realtime's max_record_bytes: bigger changes are sent without their values over 64 bytes. */
const MAX_RECORD_BYTES = 1024 * 1024;
/**
 * Changes whose frames leave for each client in one write. Bounded so that a slice of large rows cannot pile
 * up past a socket's buffer limit (session.ts) before it is written.
 */
const CHANGES_PER_WRITE = 100;

/**
 * A broadcast reaches every channel of its topic that may read broadcasts; a private and a public channel of
 * the same name are different topics, as in Realtime. The sender gets its own message only if it asked to.
 */
export function relayBroadcast(
  sessions: Sessions,
  sender: Client | null,
  broadcast: UserBroadcast,
  includeSender: boolean,
): void {
  const topic = broadcast.topic;
  const encoded = new Map<Vsn, string | Buffer | null>();
  for (const other of sessions.clients) {
    if (other === sender && !includeSender) continue;
    const channel = other.channels.get(topic);
    if (!channel || channel.isPrivate !== (broadcast.private === true) || !channel.policies.read.broadcast) continue;
    if (!encoded.has(other.vsn)) encoded.set(other.vsn, encodeBroadcast(other.vsn, broadcast));
    const frame = encoded.get(other.vsn);
    if (frame) sessions.sendRaw(other, frame);
  }
}

// ---------------------------------------------------------------- postgres_changes

interface Delivery {
  client: Client;
  channel: Channel;
  ids: number[];
}

function matchingDeliveries(sessions: Sessions, change: CapturedChange): Delivery[] {
  const values = (change.type === 'DELETE' ? change.oldRecordText : change.recordText) ?? {};
  const typeOf = (column: string) => change.columns.find((c) => c.name === column)?.type;
  const now = Date.now() / 1000;
  const deliveries: Delivery[] = [];
  for (const client of sessions.clients) {
    for (const channel of client.channels.values()) {
      if (!channel.postgresActive) continue;
      // An expired token receives nothing until it is refreshed (the channel closes at expiry anyway).
      const exp = channel.identity.claims.exp;
      if (typeof exp === 'number' && exp < now) continue;
      const ids: number[] = [];
      for (const binding of channel.bindings) {
        if (binding.event !== '*' && binding.event !== change.type) continue;
        if (binding.schema !== '*' && binding.schema !== change.schema) continue;
        if (binding.table !== '*' && binding.table !== change.table) continue;
        if (binding.filter.length > 0 && !matchesFilter(binding.filter, values, typeOf)) continue;
        ids.push(binding.id);
      }
      if (ids.length > 0) deliveries.push({ client, channel, ids });
    }
  }
  return deliveries;
}

/** The `data` of a postgres_changes push as one role may see it, as apply_rls builds it. */
function changeData(change: CapturedChange, role: string, verdict: AccessVerdict): Record<string, unknown> {
  const selectable = verdict.selectableColumns.get(role) ?? new Set<string>();
  const base = { schema: change.schema, table: change.table, commit_timestamp: change.commitTimestamp };
  if (change.type !== 'DELETE') {
    const errorPayload = (error: string) => ({
      ...base,
      commit_timestamp: null,
      type: change.type,
      columns: [],
      record: {},
      ...(change.type === 'UPDATE' ? { old_record: {} } : {}),
      errors: [error],
    });
    if (change.primaryKey.length === 0) return errorPayload('Error 400: Bad Request, no primary key');
    if (!change.primaryKey.every((column) => selectable.has(column))) return errorPayload('Error 401: Unauthorized');
  }
  const keep = (values: Record<string, unknown> | null, onlyKey: boolean) =>
    Object.fromEntries(
      Object.entries(values ?? {}).filter(
        ([column]) => selectable.has(column) && (!onlyKey || change.primaryKey.includes(column)),
      ),
    );
  const data: Record<string, unknown> = {
    ...base,
    type: change.type,
    columns: change.columns
      .filter((column) => selectable.has(column.name))
      .map((column) => ({ name: column.name, type: column.type })),
  };
  if (change.type !== 'DELETE') data.record = keep(change.record, false);
  // Under RLS a DELETE cannot be checked (the row is gone), so it reveals only the primary key.
  if (change.type !== 'INSERT') {
    data.old_record = keep(change.oldRecord, change.type === 'DELETE' && verdict.rlsEnabled);
  }
  let errors: string[] | null = null;
  if (JSON.stringify(data).length > MAX_RECORD_BYTES) {
    errors = ['Error 413: Payload Too Large'];
    for (const field of ['record', 'old_record'] as const) {
      const values = data[field] as Record<string, unknown> | undefined;
      if (!values) continue;
      data[field] = Object.fromEntries(
        Object.entries(values).filter(([, value]) => Buffer.byteLength(JSON.stringify(value) ?? '') <= 64),
      );
    }
  }
  data.errors = errors;
  return data;
}

interface PreparedChange {
  change: CapturedChange;
  deliveries: Delivery[];
  verdict: AccessVerdict;
}

/**
 * Who may see each change of a batch: each table's changed rows in one check per subscribed identity, all
 * tables at once (access.ts). Changes nobody subscribes to are left out; a batch whose access could not be
 * decided is delivered to nobody (failing closed).
 */
async function decideAccess(
  sessions: Sessions,
  checks: pg.Pool,
  changes: CapturedChange[],
): Promise<Map<CapturedChange, PreparedChange>> {
  const byTable = new Map<
    string,
    { changes: CapturedChange[]; deliveries: Delivery[][]; identities: Map<string, Identity> }
  >();
  for (const change of changes) {
    if (isDatabaseMessage(change)) continue;
    const deliveries = matchingDeliveries(sessions, change);
    if (deliveries.length === 0) continue;
    const key = `${change.relationOid}\u0000${change.primaryKey.join('\u0000')}`;
    let group = byTable.get(key);
    if (!group) {
      group = { changes: [], deliveries: [], identities: new Map() };
      byTable.set(key, group);
    }
    group.changes.push(change);
    group.deliveries.push(deliveries);
    for (const { channel } of deliveries) group.identities.set(identityKey(channel.identity), channel.identity);
  }
  const decided = new Map<CapturedChange, PreparedChange>();
  const groups = [...byTable.values()];
  try {
    const verdicts = await evaluateAccess(
      checks,
      groups.map((group) => ({ changes: group.changes, identities: [...group.identities.values()] })),
    );
    groups.forEach((group, table) =>
      group.changes.forEach((change, index) =>
        decided.set(change, { change, deliveries: group.deliveries[index]!, verdict: verdicts[table]![index]! }),
      ),
    );
  } catch (error) {
    const tables = [...new Set(groups.map((group) => group.changes[0]!.table))].join(', ');
    sessions.ctx.log(`realtime could not check access to changes on ${tables}: ${(error as Error).message}`);
  }
  return decided;
}

function deliver(sessions: Sessions, { change, deliveries, verdict }: PreparedChange): void {
  const dataJsonByRole = new Map<string, string>();
  for (const { client, channel, ids } of deliveries) {
    const { role } = channel.identity;
    const selectable = verdict.selectableColumns.get(role);
    const readsKey = change.primaryKey.length > 0 && change.primaryKey.every((column) => selectable?.has(column));
    // INSERT/UPDATE reach a subscriber only if visible under RLS; errors (no key, no privilege) always do.
    if (change.type !== 'DELETE' && readsKey && verdict.visible.get(identityKey(channel.identity)) !== true) continue;
    let dataJson = dataJsonByRole.get(role);
    if (dataJson === undefined) {
      dataJson = JSON.stringify(changeData(change, role, verdict));
      dataJsonByRole.set(role, dataJson);
    }
    sessions.sendRaw(
      client,
      encodeWithPayloadJson(
        client.vsn,
        null,
        null,
        channel.topic,
        'postgres_changes',
        `{"ids":${JSON.stringify(ids)},"data":${dataJson}}`,
      ),
    );
  }
}

// ---------------------------------------------------------------- broadcast from the database

const isDatabaseMessage = (change: CapturedChange) =>
  change.schema === 'realtime' && change.table === 'messages' && change.type === 'INSERT';

/**
 * A row realtime.send() inserted, as Realtime's ReplicationConnection turns it into a broadcast: its topic
 * (private or public), event and payload, with the row's id as metadata. Other extensions are not messages.
 */
function databaseBroadcast(change: CapturedChange): UserBroadcast | null {
  const row = change.recordText ?? {};
  if (row.extension !== 'broadcast' || !row.topic || row.event === null || row.event === undefined) return null;
  let payload: unknown;
  try {
    payload = row.payload ? JSON.parse(row.payload) : {};
  } catch {
    return null;
  }
  return {
    topic: `realtime:${row.topic}`,
    event: row.event,
    payload,
    binary: false,
    private: row.private === 't',
    meta: { id: row.id },
  };
}

/**
 * One committed transaction (or one slice of a large one), decided: access for all its changes is decided
 * first, as a batch on Realtime's own connections (access.ts), as Realtime's poller decides a batch of
 * changes at once. The promise gives the delivery, which sends them in order and is called once every
 * earlier transaction was delivered (changes.ts keeps that order). Deciding each change on its own,
 * concurrently, let a burst (a bulk tag of 20 files, seen by 20 people: 800 checks) take every pooled
 * connection and both cores, and every request of Auth, Storage and the API waited behind it.
 * Messages from realtime.send() go to broadcast channels, never to postgres_changes subscribers.
 */
export async function decideCommit(
  sessions: Sessions,
  checks: pg.Pool,
  changes: CapturedChange[],
): Promise<() => void> {
  const decided = await decideAccess(sessions, checks, changes);
  return () => {
    for (let start = 0; start < changes.length; start += CHANGES_PER_WRITE) {
      sessions.corked(() => {
        for (const change of changes.slice(start, start + CHANGES_PER_WRITE)) {
          if (isDatabaseMessage(change)) {
            const broadcast = databaseBroadcast(change);
            if (broadcast) relayBroadcast(sessions, null, broadcast, true);
            continue;
          }
          const ready = decided.get(change);
          if (ready) deliver(sessions, ready);
        }
      });
    }
  };
}
