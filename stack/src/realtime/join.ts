import { randomUUID } from 'node:crypto';
import type { Claims } from '../jwt.ts';
import { readPolicies } from './authorization.ts';
import { parseFilter, type Filter } from './filters.ts';
import type { Message } from './protocol.ts';
import { tokenProblem, type Binding, type Channel, type Client, type Sessions } from './session.ts';

/**
 * `phx_join`: the token is verified, a private channel is authorized by RLS on realtime.messages, each
 * postgres_changes binding is checked as Realtime checks it (published table, readable filter columns), and
 * the reply lists the bindings in the order asked for, with their ids.
 */

const ALL_ALLOWED = { broadcast: true, presence: true };
let nextBindingId = 1;

const describeParams = (binding: Omit<Binding, 'id'>) =>
  `event: ${binding.event}, schema: ${binding.schema}, table: ${binding.table}, filters: ${JSON.stringify(
    binding.filter.map((c) => [c.column, c.operator, c.values.join(','), c.negate]),
  )}, select: nil`;

/** Realtime's subscription checks: the table is published and every filter column is readable by the role. */
async function subscriptionProblem(
  sessions: Sessions,
  binding: Omit<Binding, 'id'>,
  role: string,
): Promise<string | null> {
  const { rows } = await sessions.ctx.adminPool.query<{ oid: number; columns: string[] }>(
    `select c.oid::int,
            coalesce((select array_agg(a.attname::text) from pg_attribute a
                       where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                         and has_column_privilege($4, c.oid, a.attnum, 'SELECT')), '{}') as columns
       from pg_publication_tables p
       join pg_class c on c.relname = p.tablename
       join pg_namespace n on n.oid = c.relnamespace and n.nspname = p.schemaname
      where p.pubname = 'supabase_realtime'
        and ($1 = '*' or p.schemaname = $1) and ($2 = '*' or p.tablename = $2)
        and exists (select 1 from pg_roles where rolname = $3)`,
    [binding.schema, binding.table, role, role],
  );
  if (rows.length === 0) {
    return `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [${describeParams(binding)}]`;
  }
  for (const row of rows) {
    const missing = binding.filter.find((condition) => !row.columns.includes(condition.column));
    if (missing) {
      return `Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: [${describeParams(binding)}]. Exception: invalid column for filter ${missing.column}`;
    }
  }
  return null;
}

/** The bindings asked for, and the first reason any of them cannot subscribe. */
async function bindingsOf(
  sessions: Sessions,
  config: Record<string, unknown>,
  role: string,
): Promise<{ bindings: Binding[]; problem: string | null }> {
  const requested = Array.isArray(config.postgres_changes)
    ? (config.postgres_changes as unknown[]).map((p) =>
        p !== null && typeof p === 'object' ? (p as Record<string, unknown>) : {},
      )
    : [];
  const bindings: Binding[] = [];
  let problem: string | null = null;
  for (const params of requested) {
    const event =
      typeof params.event === 'string' && ['INSERT', 'UPDATE', 'DELETE'].includes(params.event.toUpperCase())
        ? (params.event.toUpperCase() as Binding['event'])
        : '*';
    const hasSchema = typeof params.schema === 'string';
    const hasTable = typeof params.table === 'string';
    const schema = hasSchema ? (params.schema as string) : 'public';
    const table = hasTable ? (params.table as string) : '*';
    let filter: Filter = [];
    if (!hasSchema && !hasTable) {
      problem ??= `No subscription params provided. Please provide at least a \`schema\` or \`table\` to subscribe to: ${JSON.stringify(params)}`;
    } else if (typeof params.filter === 'string') {
      try {
        filter = parseFilter(params.filter);
      } catch (error) {
        problem ??= `Error parsing \`filter\` params: ${(error as Error).message}`;
      }
    }
    const binding = { id: nextBindingId++, params, event, schema, table, filter };
    bindings.push(binding);
    if (!problem) problem = await subscriptionProblem(sessions, binding, role);
  }
  return { bindings, problem };
}

export async function join(
  sessions: Sessions,
  client: Client,
  request: Message,
  changesStreaming: () => boolean,
): Promise<void> {
  const { payload, topic } = request;
  const config = (payload.config ?? {}) as Record<string, unknown>;
  const accessToken = typeof payload.access_token === 'string' ? payload.access_token : client.apikey;
  let claims: Claims;
  try {
    claims = await sessions.verify(accessToken);
  } catch (error) {
    sessions.reply(client, request, 'error', { reason: tokenProblem(error) });
    return;
  }
  const role = claims.role as string;
  const isPrivate = config.private === true;
  const name = topic.replace(/^realtime:/, '');
  const read = isPrivate ? await readPolicies(sessions.ctx.adminPool, { role, claims }, name) : ALL_ALLOWED;
  if (!read.broadcast && !read.presence) {
    sessions.reply(client, request, 'error', {
      reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${name}`,
    });
    return;
  }
  const { bindings, problem } = await bindingsOf(sessions, config, role);
  if (bindings.length > 0 && !changesStreaming()) {
    // Without the change stream a confirmed subscription would miss changes: refuse, and realtime-js rejoins.
    sessions.reply(client, request, 'error', { reason: 'Realtime was unable to connect to the project database' });
    return;
  }
  const previous = client.channels.get(topic);
  if (previous) sessions.forgetChannel(client, previous);
  const broadcast = (config.broadcast ?? {}) as Record<string, unknown>;
  const presenceConfig = (config.presence ?? {}) as Record<string, unknown>;
  const channel: Channel = {
    topic,
    name,
    joinRef: request.joinRef,
    bindings,
    postgresActive: problem === null,
    identity: { role, claims },
    accessToken,
    broadcastSelf: broadcast.self === true,
    broadcastAck: broadcast.ack === true,
    presenceKey:
      typeof presenceConfig.key === 'string' && presenceConfig.key !== '' ? presenceConfig.key : randomUUID(),
    isPrivate,
    policies: { read, write: isPrivate ? {} : ALL_ALLOWED },
  };
  client.channels.set(topic, channel);
  sessions.armExpiry(client, channel);
  // realtime-js compares each returned binding with what it asked for, in order, and leaves on a mismatch.
  const response = bindings.map((b) => ({
    ...pickPresent(b.params, ['event', 'schema', 'table', 'filter']),
    id: b.id,
  }));
  sessions.reply(client, request, 'ok', { postgres_changes: response });
  if (bindings.length > 0) {
    sessions.systemMessage(
      client,
      channel,
      'postgres_changes',
      problem ? 'error' : 'ok',
      problem ?? 'Subscribed to PostgreSQL',
    );
  }
  if (presenceConfig.enabled === true && read.presence) {
    sessions.send(client, {
      joinRef: channel.joinRef,
      ref: null,
      topic,
      event: 'presence_state',
      payload: sessions.presence.state(topic),
    });
  }
}

/** The client's own binding fields, leaving out absent ones (realtime-js treats null as undefined). */
function pickPresent(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(
    keys.filter((k) => source[k] !== undefined && source[k] !== null).map((k) => [k, source[k]]),
  );
}
