import '../files.css';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useSetFilesTags } from '../api/set-files-tags.ts';
import type { FileSelection } from '../api/selection.ts';
import { TagPicker } from './tag-picker.tsx';
import { paths } from '../../../config/paths.ts';
import { EmptyState } from '../../../components/ui/empty-state.tsx';

/** Bulk tag edit: sets the tags of every selected file, replacing what they had. */
export function EditTagsScreen() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as { selection?: FileSelection; count?: number } | null;
  const [chosen, setChosen] = useState<string[]>([]);
  const save = useSetFilesTags();

  if (!state?.selection) {
    return (
      <section className="page">
        <h1>Editar etiquetas</h1>
        <EmptyState title="No hay archivos seleccionados" action={<Link to={paths.files}>Volver a los archivos</Link>}>
          <p>Selecciona archivos en la pantalla de archivos y pulsa «Editar tags».</p>
        </EmptyState>
      </section>
    );
  }
  const selection = state.selection;
  return (
    <section className="page">
      <h1>Editar tags {state.count} archivo(s)</h1>
      <p className="warning" role="note">
        Atención: las etiquetas elegidas reemplazarán las etiquetas de todos los archivos seleccionados.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ selection, tagIds: chosen }, { onSuccess: () => void navigate(-1) });
        }}
      >
        <TagPicker value={chosen} onChange={setChosen} />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            Guardar
          </button>
          <button type="button" className="button" onClick={() => void navigate(-1)}>
            Cancelar
          </button>
        </div>
      </form>
    </section>
  );
}
