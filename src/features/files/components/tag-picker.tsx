import { useQuery } from '@tanstack/react-query';
import { tagCategoriesQuery, tagsQuery } from '../../../lib/catalogue/get-catalogue.ts';

/** Tag checkboxes grouped by category (spec section 2), for one file or a selection. */
export function TagPicker({ value, onChange }: { value: readonly string[]; onChange: (tagIds: string[]) => void }) {
  const categories = useQuery(tagCategoriesQuery);
  const tags = useQuery(tagsQuery);
  const chosen = new Set(value);
  return (
    <div className="tag-picker">
      {(categories.data ?? []).map((category) => (
        <fieldset key={category.id} className="tag-group">
          <legend>{category.name_es}</legend>
          {(tags.data ?? [])
            .filter((tag) => tag.category_id === category.id)
            .map((tag) => (
              <label key={tag.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.has(tag.id)}
                  onChange={(event) =>
                    onChange(event.target.checked ? [...value, tag.id] : value.filter((id) => id !== tag.id))
                  }
                />
                {tag.name_es}
              </label>
            ))}
        </fieldset>
      ))}
    </div>
  );
}
