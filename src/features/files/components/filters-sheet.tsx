import { useRef } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { collectionsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { isEnabled } from '../../../config/deployment.ts';
import { plural } from '../../../lib/plural.ts';
import { fileCountQuery } from '../api/count-files.ts';
import { CHOICE_KEYS, DEFAULT_SORT, FILE_FILTERS, SORTS, choiceOptions } from '../api/file-filters.ts';
import type { FileFiltersState, FilterParam } from '../hooks/use-file-filters.ts';
import { TagCommand } from './tag-command.tsx';

interface Option {
  value: string;
  label: string;
}

/** One filter as a group of radio buttons: what a thumb can hit, and what a screen reader reads as a group. */
function RadioGroup({
  name,
  legend,
  value,
  options,
  onChange,
}: {
  name: string;
  legend: string;
  value: string;
  options: readonly Option[];
  onChange: (value: string) => void;
}) {
  return (
    <fieldset className="sheet-group">
      <legend>{legend}</legend>
      <div className="sheet-options">
        {options.map((option) => (
          <label key={option.value} className="sheet-option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The phone's filters (below 768 px): one 'Filtros' button opening a bottom sheet (a Radix dialog) with every
 * filter and the order. A choice applies at once, the grid updating behind; 'Ver n archivos' closes it.
 */
export function FiltersSheet({
  state,
  activeCount,
  defaultOpen,
}: {
  state: FileFiltersState;
  activeCount: number;
  defaultOpen: boolean;
}) {
  const { filters, sort, setFilter, clear, active } = state;
  const collections = useQuery({ ...collectionsQuery, enabled: isEnabled('collections') });
  const count = useQuery(fileCountQuery(filters));
  // The tag list (cmdk) scrolls its first option into view as it mounts, which would open the sheet scrolled
  // past 'Orden': until the person touches, wheels or types in the sheet, any scroll of its body is undone.
  const touched = useRef(false);
  const touch = () => {
    touched.current = true;
  };
  const choices = CHOICE_KEYS.filter((key) => {
    const definition = FILE_FILTERS[key];
    return !('feature' in definition) || isEnabled(definition.feature);
  });
  return (
    <Dialog.Root defaultOpen={defaultOpen} onOpenChange={(open) => open && (touched.current = false)}>
      <Dialog.Trigger className="button filters-button">
        {/* One run of text: a separate element would be a flex item, and its leading space would be dropped. */}
        Filtros{activeCount > 0 ? ` (${activeCount})` : ''}
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="sheet" aria-describedby={undefined}>
          <div className="sheet-header">
            <Dialog.Title className="dialog-title">Filtros</Dialog.Title>
            {active && (
              <button type="button" className="link-button filter-clear" onClick={clear}>
                Quitar filtros
              </button>
            )}
          </div>
          <div
            className="sheet-body"
            onScroll={(event) => {
              if (!touched.current) event.currentTarget.scrollTop = 0;
            }}
            onPointerDown={touch}
            onWheel={touch}
            onTouchStart={touch}
            onKeyDown={touch}
          >
            <RadioGroup
              name="sheet-sort"
              legend="Orden"
              value={sort}
              options={SORTS}
              onChange={(value) => setFilter('sort', value === DEFAULT_SORT ? null : value)}
            />
            {choices.map((key) => (
              <RadioGroup
                key={key}
                name={`sheet-${key}`}
                legend={FILE_FILTERS[key].label}
                value={filters[key] ?? ''}
                options={choiceOptions(key)}
                onChange={(value) => setFilter(FILE_FILTERS[key].param as FilterParam, value || null)}
              />
            ))}
            <fieldset className="sheet-group">
              <legend>Etiqueta</legend>
              <TagCommand
                label="Filtrar por etiqueta"
                selected={new Set(filters.tagId ? [filters.tagId] : [])}
                onSelect={(tagId) => setFilter('tag', tagId)}
                anyOption={{ label: 'Cualquier etiqueta', onSelect: () => setFilter('tag', null) }}
              />
            </fieldset>
            {isEnabled('collections') && (collections.data ?? []).length > 0 && (
              <RadioGroup
                name="sheet-collection"
                legend="Colección"
                value={filters.collectionId ?? ''}
                options={[
                  { value: '', label: 'Todas' },
                  ...(collections.data ?? []).map((collection) => ({ value: collection.id, label: collection.name })),
                ]}
                onChange={(value) => setFilter('collection', value || null)}
              />
            )}
          </div>
          <div className="sheet-footer">
            <Dialog.Close className="button button-primary sheet-done">
              {count.data === undefined ? 'Ver archivos' : `Ver ${plural(count.data, 'archivo', 'archivos')}`}
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
