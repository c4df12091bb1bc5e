import '../tag-command.css';
import { useMemo } from 'react';
import { Command } from 'cmdk';
import { useQuery } from '@tanstack/react-query';
import { tagCategoriesQuery, tagsQuery } from '../../../lib/catalogue/get-catalogue.ts';

const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** Accent- and case-blind, as the files search is: 'habitacion' finds 'Habitación', in Spanish or English. */
function matchTag(_value: string, search: string, keywords?: string[]): number {
  const wanted = plain(search.trim());
  if (!wanted) return 1;
  return (keywords ?? []).some((keyword) => plain(keyword).includes(wanted)) ? 1 : 0;
}

/** The tags grouped by their category, categories and tags by Spanish name. */
export function useTagGroups() {
  const tags = useQuery(tagsQuery);
  const categories = useQuery(tagCategoriesQuery);
  return useMemo(
    () =>
      (categories.data ?? [])
        .map((category) => ({
          id: category.id,
          name: category.name_es,
          tags: (tags.data ?? []).filter((tag) => tag.category_id === category.id),
        }))
        .filter((group) => group.tags.length > 0),
    [tags.data, categories.data],
  );
}

interface TagCommandProps {
  /** Names the search field for screen readers. */
  label: string;
  selected: ReadonlySet<string>;
  onSelect: (tagId: string) => void;
  /** A first option meaning "no tag" (the filter's 'Cualquier etiqueta'). */
  anyOption?: { label: string; onSelect: () => void };
  autoFocus?: boolean;
}

/**
 * A searchable list of the tags grouped by category (cmdk: a combobox with a listbox, arrow keys and Enter),
 * the filter's single choice and the file form's multiple choice alike. A chosen tag is ticked and says so
 * to a screen reader (aria-checked).
 */
export function TagCommand({ label, selected, onSelect, anyOption, autoFocus }: TagCommandProps) {
  const groups = useTagGroups();
  return (
    <Command label={label} filter={matchTag} className="tag-command" loop>
      <Command.Input className="tag-command-input" placeholder="Buscar etiqueta…" autoFocus={autoFocus} />
      <Command.List className="tag-command-list">
        <Command.Empty className="tag-command-empty">Ninguna etiqueta coincide.</Command.Empty>
        {anyOption && (
          <Command.Item
            value="__any"
            keywords={[anyOption.label]}
            className="tag-command-item"
            onSelect={anyOption.onSelect}
            aria-checked={selected.size === 0}
          >
            <span className="tag-command-check" aria-hidden="true">
              {selected.size === 0 ? '✓' : ''}
            </span>
            {anyOption.label}
          </Command.Item>
        )}
        {groups.map((group) => (
          <Command.Group key={group.id} heading={group.name} className="tag-command-group">
            {group.tags.map((tag) => (
              <Command.Item
                key={tag.id}
                value={tag.id}
                keywords={[tag.name_es, tag.name_en, group.name]}
                className="tag-command-item"
                onSelect={() => onSelect(tag.id)}
                aria-checked={selected.has(tag.id)}
              >
                <span className="tag-command-check" aria-hidden="true">
                  {selected.has(tag.id) ? '✓' : ''}
                </span>
                {tag.name_es}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
      </Command.List>
    </Command>
  );
}
