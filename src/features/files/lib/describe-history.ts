import { FIELD_LABELS, type FileFormValues } from './file-form-values.ts';

type Changes = Record<string, unknown>;

const shown = (value: unknown) => {
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  const text = String(value ?? '').trim();
  if (!text) return '(vacío)';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

/** One history row as a Spanish sentence and, for edits, the fields changed with old → new. */
export function describeHistory(action: string, changes: Changes): { title: string; details: string[] } {
  const name = (key: string) => shown(changes[key]);
  switch (action) {
    case 'created':
      return { title: `Subió el archivo ${name('original_file_name')}`, details: [] };
    case 'edited':
      return {
        title: 'Editó el archivo',
        details: Object.entries(changes).map(([field, value]) => {
          const { old: before, new: after } = (value ?? {}) as { old?: unknown; new?: unknown };
          const label = FIELD_LABELS[field as keyof FileFormValues] ?? field;
          return `${label}: ${shown(before)} → ${shown(after)}`;
        }),
      };
    case 'published':
      return { title: 'Lo activó', details: [] };
    case 'unpublished':
      return { title: 'Lo desactivó', details: [] };
    case 'replaced':
      return { title: 'Subió un archivo nuevo', details: [`${name('old')} → ${name('new')}`] };
    case 'tagged':
      return { title: `Añadió la etiqueta ${name('tag')}`, details: [] };
    case 'untagged':
      return { title: `Quitó la etiqueta ${name('tag')}`, details: [] };
    case 'added_to_collection':
      return { title: `Lo añadió a la colección ${name('collection')}`, details: [] };
    case 'removed_from_collection':
      return { title: `Lo quitó de la colección ${name('collection')}`, details: [] };
    case 'deleted':
      return { title: 'Borró el archivo', details: [] };
    case 'restored':
      return { title: 'Lo restauró desde la Papelera', details: [] };
    default:
      return { title: action, details: [] };
  }
}
