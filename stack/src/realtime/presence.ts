import { randomUUID } from 'node:crypto';

/**
 * Presence for public channels, in the shapes realtime-js's RealtimePresence reads: `presence_state`
 * `{key: {metas: [{phx_ref, ...meta}]}}` on join and `presence_diff` `{joins, leaves}` when a member
 * tracks, updates, untracks or goes away. One member per (socket channel, presence key), as Phoenix
 * Presence tracks per channel process.
 */

export interface PresenceMeta {
  phx_ref: string;
  phx_ref_prev?: string;
  [field: string]: unknown;
}

export type PresenceMap = Record<string, { metas: PresenceMeta[] }>;
export interface PresenceDiff {
  joins: PresenceMap;
  leaves: PresenceMap;
}

interface Member {
  key: string;
  meta: PresenceMeta;
}

export class PresenceRegistry {
  /** topic → member owner (an opaque per-channel object) → member */
  private readonly topics = new Map<string, Map<object, Member>>();

  state(topic: string): PresenceMap {
    const state: PresenceMap = {};
    for (const member of this.topics.get(topic)?.values() ?? []) {
      (state[member.key] ??= { metas: [] }).metas.push(member.meta);
    }
    return state;
  }

  /** Returns the diff to broadcast, or null when nothing changed (same payload tracked again). */
  track(topic: string, owner: object, key: string, payload: Record<string, unknown>): PresenceDiff | null {
    let members = this.topics.get(topic);
    if (!members) this.topics.set(topic, (members = new Map()));
    const previous = members.get(owner);
    if (previous && JSON.stringify(stripRefs(previous.meta)) === JSON.stringify(payload)) return null;
    const meta: PresenceMeta = { ...payload, phx_ref: randomUUID() };
    if (previous) meta.phx_ref_prev = previous.meta.phx_ref;
    members.set(owner, { key, meta });
    return {
      joins: { [key]: { metas: [meta] } },
      leaves: previous ? { [previous.key]: { metas: [previous.meta] } } : {},
    };
  }

  untrack(topic: string, owner: object): PresenceDiff | null {
    const members = this.topics.get(topic);
    const member = members?.get(owner);
    if (!members || !member) return null;
    members.delete(owner);
    if (members.size === 0) this.topics.delete(topic);
    return { joins: {}, leaves: { [member.key]: { metas: [member.meta] } } };
  }
}

function stripRefs(meta: PresenceMeta): Record<string, unknown> {
  const { phx_ref: _ref, phx_ref_prev: _prev, ...rest } = meta;
  return rest;
}
