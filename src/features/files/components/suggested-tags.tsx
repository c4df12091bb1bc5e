import { useQuery } from '@tanstack/react-query';
import { suggestedTagsQuery } from '../api/get-suggested-tags.ts';

interface SuggestedTagsProps {
  fileId: string;
  /** The tags the form holds now: a suggestion already taken is no longer offered. */
  chosen: readonly string[];
  onAdd: (tagId: string) => void;
}

/**
 * 'Etiquetas sugeridas': existing tags named by the file's embedded keywords, one button each. A click puts
 * the tag among the file's tags in the form, which Guardar saves with the rest; nothing is added unasked.
 * Hidden when there is nothing to suggest.
 */
export function SuggestedTags({ fileId, chosen, onAdd }: SuggestedTagsProps) {
  const suggested = useQuery(suggestedTagsQuery(fileId));
  const offered = (suggested.data ?? []).filter((tag) => !chosen.includes(tag.id));
  if (offered.length === 0) return null;
  return (
    <section className="suggested-tags" aria-labelledby="suggested-tags-title">
      <h2 id="suggested-tags-title" className="suggested-tags-title">
        Etiquetas sugeridas
      </h2>
      <ul className="suggested-tags-list">
        {offered.map((tag) => (
          <li key={tag.id}>
            <button
              type="button"
              className="button button-small suggested-tag"
              aria-label={`Añadir etiqueta sugerida ${tag.name_es}`}
              onClick={() => onAdd(tag.id)}
            >
              <span aria-hidden="true">+</span> {tag.name_es}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
