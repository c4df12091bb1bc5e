import { FIELD_LABELS, type FileFormValues } from './file-form-values.ts';
import { formatDay, LICENSE_LABELS, RELEASE_LABELS } from './rights.ts';

type Changes = Record<string, unknown>;

const shown = (value: unknown) => {
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  const text = String(value ?? '').trim();
  if (!text) return '(vacío)';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

/** Values the database stores as codes or ISO dates, in the words and format the form shows them in. */
const FIELD_VALUES: Partial<Record<string, (value: unknown) => unknown>> = {
  rights_license: (value) => LICENSE_LABELS[value as keyof typeof LICENSE_LABELS] ?? value,
  rights_release: (value) => RELEASE_LABELS[value as keyof typeof RELEASE_LABELS] ?? value,
  rights_expire_on: (value) => (typeof value === 'string' ? formatDay(value) : value),
};

const shownField = (field: string, value: unknown) => shown(FIELD_VALUES[field]?.(value) ?? value);

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
          return `${label}: ${shownField(field, before)} → ${shownField(field, after)}`;
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
