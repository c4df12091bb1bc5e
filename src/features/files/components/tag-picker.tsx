import { useMemo } from 'react';
import * as Popover from '@radix-ui/react-popover';
import { useQuery } from '@tanstack/react-query';
import { tagsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { TagCommand } from './tag-command.tsx';

/**
 * The tags of one file or a selection: the chosen ones as chips with an × each, and
 * 'Añadir etiquetas' opening a searchable list grouped by category (cmdk in a Radix popover) where a click or
 * Enter ticks or unticks a tag, instead of a wall of checkboxes.
 */
export function TagPicker({ value, onChange }: { value: readonly string[]; onChange: (tagIds: string[]) => void }) {
  const tags = useQuery(tagsQuery);
  const chosen = useMemo(() => new Set(value), [value]);
  const shown = (tags.data ?? []).filter((tag) => chosen.has(tag.id));
  const toggle = (tagId: string) =>
    onChange(chosen.has(tagId) ? value.filter((id) => id !== tagId) : [...value, tagId]);
  return (
    <fieldset className="tag-picker">
      <legend>Etiquetas</legend>
      {shown.length === 0 ? (
        <p className="muted tag-picker-empty">Sin etiquetas.</p>
      ) : (
        <ul className="tag-chips" aria-label="Etiquetas elegidas">
          {shown.map((tag) => (
            <li key={tag.id} className="tag-chip">
              {tag.name_es}
              <button
                type="button"
                className="tag-chip-remove"
                aria-label={`Quitar etiqueta ${tag.name_es}`}
                onClick={() => toggle(tag.id)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <Popover.Root>
        <Popover.Trigger className="button tag-picker-add">Añadir etiquetas</Popover.Trigger>
        <Popover.Portal>
          <Popover.Content className="menu tag-menu" sideOffset={4} align="start" collisionPadding={8}>
            <TagCommand label="Buscar etiqueta" selected={chosen} onSelect={toggle} autoFocus />
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </fieldset>
  );
}
