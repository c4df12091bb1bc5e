import { useQuery } from '@tanstack/react-query';
import { tagsQuery, collectionsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { FIELD_LABELS, type FileFormValues } from '../lib/file-form-values.ts';
import { LICENSE_LABELS, RELEASE_LABELS, formatDay, type FileLicense, type FileRelease } from '../lib/rights.ts';

interface FileConflictProps {
  fields: Array<keyof FileFormValues>;
  theirs: FileFormValues;
  yours: FileFormValues;
  onKeepYours: () => void;
  onTakeTheirs: () => void;
  busy: boolean;
}

/**
 * Shown when a save was refused because someone else saved the file after this form read it: what they
 * changed, their value beside yours, and a way to keep either. Nothing was written by the refused save.
 */
export function FileConflict({ fields, theirs, yours, onKeepYours, onTakeTheirs, busy }: FileConflictProps) {
  const tags = useQuery(tagsQuery);
  const collections = useQuery(collectionsQuery);
  const show = (key: keyof FileFormValues, value: FileFormValues[keyof FileFormValues]) => {
    if (typeof value === 'boolean') return value ? 'Sí' : 'No';
    if (Array.isArray(value)) {
      const names = new Map(
        key === 'tagIds'
          ? (tags.data ?? []).map((tag) => [tag.id, tag.name_es])
          : (collections.data ?? []).map((collection) => [collection.id, collection.name]),
      );
      return value.map((id) => names.get(id) ?? id).join(', ') || '—';
    }
    if (!value) return '—';
    if (key === 'rights_license') return LICENSE_LABELS[value as FileLicense];
    if (key === 'rights_release') return RELEASE_LABELS[value as FileRelease];
    if (key === 'rights_expire_on') return formatDay(value);
    return value;
  };
  return (
    <div className="file-conflict" role="alert">
      <p className="file-conflict-title">Otra persona ha cambiado este archivo</p>
      <p>Tus cambios no se han guardado todavía. Compara y elige qué versión conservar.</p>
      <table>
        <thead>
          <tr>
            <th scope="col">Campo</th>
            <th scope="col">Su versión</th>
            <th scope="col">Tu versión</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((key) => (
            <tr key={key}>
              <th scope="row">{FIELD_LABELS[key]}</th>
              <td>{show(key, theirs[key])}</td>
              <td>{show(key, yours[key])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="form-actions">
        <button type="button" className="button button-primary" onClick={onKeepYours} disabled={busy}>
          Guardar mi versión
        </button>
        <button type="button" className="button" onClick={onTakeTheirs} disabled={busy}>
          Usar su versión
        </button>
      </div>
    </div>
  );
}
