import { plural } from '../../../lib/plural.ts';

/** A file a bulk action left out, and the rule that refused it (the database's hint). */
export interface RefusedFile {
  id: string;
  name: string;
  reason: string;
}

/** What the database lists when a per-file rule refuses some files of a bulk action: all counted, some named. */
export interface Refusal {
  count: number;
  files: RefusedFile[];
}

const REASONS: Record<string, string> = {
  RIGHTS_EXPIRED: 'derechos caducados',
  FILE_PROCESSING_FAILED: 'no se pudo procesar',
  FILES_PROCESSING: 'en proceso',
};

/** The refusal a bulk RPC's error carries in its details (JSON), or null for any other error. */
export function refusalOf(error: unknown): Refusal | null {
  const details = (error as { details?: unknown } | null)?.details;
  if (typeof details !== 'string' || !details.startsWith('{')) return null;
  try {
    const parsed = JSON.parse(details) as Partial<Refusal>;
    if (typeof parsed.count !== 'number' || !Array.isArray(parsed.files)) return null;
    return { count: parsed.count, files: parsed.files };
  } catch {
    return null;
  }
}

/**
 * '1 archivo no se puede activar: derechos caducados — «Piscina 2019»': the count, then each reason with the
 * names it refused (the database names at most 20; the rest are counted).
 */
export function refusalMessage(refusal: Refusal, verb: string): string {
  const byReason = new Map<string, string[]>();
  for (const file of refusal.files) {
    const names = byReason.get(file.reason) ?? [];
    names.push(`«${file.name}»`);
    byReason.set(file.reason, names);
  }
  const reasons = [...byReason].map(([reason, names]) => `${REASONS[reason] ?? 'no permitido'} — ${names.join(', ')}`);
  const unnamed = refusal.count - refusal.files.length;
  const more = unnamed > 0 ? ` y ${unnamed.toLocaleString('es-ES')} más` : '';
  const can = refusal.count === 1 ? 'puede' : 'pueden';
  return `${plural(refusal.count, 'archivo', 'archivos')} no se ${can} ${verb}: ${reasons.join('; ')}${more}`;
}
