import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { catalogueKeys } from '../../../lib/catalogue/keys.ts';
import { getTagCategories, getTags } from '../../../lib/catalogue/get-catalogue.ts';
import { setFilesTags, type FileSelection } from '../api/bulk-actions.ts';
import { requestFeedRegeneration } from '../../../lib/background-jobs.ts';
import { fileKeys } from '../api/keys.ts';
import { paths } from '../../../config/paths.ts';

/** Bulk tag edit (spec section 2): sets the tags of every selected file, replacing what they had. */
export function EditTagsScreen() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = location.state as { selection?: FileSelection; count?: number } | null;
  const categories = useQuery({
    queryKey: catalogueKeys.tagCategories,
    queryFn: ({ signal }) => getTagCategories(signal),
  });
  const tags = useQuery({ queryKey: catalogueKeys.tags, queryFn: ({ signal }) => getTags(signal) });
  const [chosen, setChosen] = useState<string[]>([]);
  const save = useMutation({
    mutationFn: () => setFilesTags(state!.selection!, chosen),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: fileKeys.all });
      requestFeedRegeneration();
      navigate(-1);
    },
  });

  if (!state?.selection) {
    return (
      <section className="page">
        <h1>Editar etiquetas</h1>
        <p>
          No hay archivos seleccionados. <Link to={paths.files}>Volver a los archivos</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="page">
      <h1>Editar tags {state.count} archivo(s)</h1>
      <p className="warning" role="note">
        Atención: las etiquetas elegidas reemplazarán las etiquetas de todos los archivos seleccionados.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        {(categories.data ?? []).map((category) => (
          <fieldset key={category.id} className="tag-group">
            <legend>{category.name_es}</legend>
            {(tags.data ?? [])
              .filter((tag) => tag.category_id === category.id)
              .map((tag) => (
                <label key={tag.id} className="checkbox">
                  <input
                    type="checkbox"
                    checked={chosen.includes(tag.id)}
                    onChange={(event) =>
                      setChosen((current) =>
                        event.target.checked ? [...current, tag.id] : current.filter((id) => id !== tag.id),
                      )
                    }
                  />
                  {tag.name_es}
                </label>
              ))}
          </fieldset>
        ))}
        {save.isError && (
          <p className="form-error" role="alert">
            No se pudieron guardar las etiquetas.
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          Guardar
        </button>
      </form>
    </section>
  );
}
