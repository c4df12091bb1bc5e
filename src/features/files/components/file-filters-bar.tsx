import '../filter-bar.css';
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { collectionsQuery, tagsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { isEnabled } from '../../../config/deployment.ts';
import { onDemand } from '../../../lib/on-demand.ts';
import { CHOICE_KEYS, DEFAULT_SORT, FILE_FILTERS, SORTS, choiceLabel } from '../api/file-filters.ts';
import type { FileFiltersState, FilterParam } from '../hooks/use-file-filters.ts';
import { SearchBox } from './search-box.tsx';
import type { ChipId } from './filter-menus.tsx';

// The menus, the tag search and the phone's sheet (Radix and cmdk) load after the first page is shown, or on
// the first click on a chip: the bar paints with the grid as plain buttons.
export const filterMenusModule = onDemand(() => import('./filter-menus.tsx'));

const shownChoices = CHOICE_KEYS.filter((key) => {
  const definition = FILE_FILTERS[key];
  return !('feature' in definition) || isEnabled(definition.feature);
});

/** A chip before its menu has loaded: the same look, a click loads the menu and opens it. */
function PlainChip({
  id,
  text,
  active,
  onOpen,
}: {
  id: ChipId;
  text: string;
  active: boolean;
  onOpen: (id: ChipId) => void;
}) {
  return (
    <button
      type="button"
      className={`filter-chip${active ? ' filter-chip-active' : ''}`}
      aria-haspopup="menu"
      aria-expanded={false}
      onClick={() => onOpen(id)}
    >
      {text}
      <span aria-hidden="true" className="filter-chip-caret">
        ▾
      </span>
    </button>
  );
}

/**
 * The files screen's filters, all kept in the URL: the search field, one chip per filter
 * (its menu on click; a set filter reads 'Tipo: Imágenes' with an × to remove it), the order, and 'Quitar
 * filtros' while anything is set. Below 768 px the chips of unset filters fold into one 'Filtros' button that
 * opens a bottom sheet, so the photos start right under the search field.
 */
export function FileFiltersBar(state: FileFiltersState) {
  const { filters, sort, setFilter, clear, active } = state;
  const tags = useQuery(tagsQuery);
  const collections = useQuery(collectionsQuery);
  const [opening, setOpening] = useState<ChipId | null>(null);
  const menus = filterMenusModule.useModule(opening !== null);
  useEffect(() => {
    if (!menus || opening === null) return;
    // The menu asked for has mounted open; later mounts (a chip set or unset) start closed.
    const timer = setTimeout(() => setOpening(null), 0);
    return () => clearTimeout(timer);
  }, [menus, opening]);

  const tagName = tags.data?.find((tag) => tag.id === filters.tagId)?.name_es;
  const collectionName = collections.data?.find((collection) => collection.id === filters.collectionId)?.name;
  const activeCount =
    shownChoices.filter((key) => filters[key]).length + (filters.tagId ? 1 : 0) + (filters.collectionId ? 1 : 0);

  const chip = (id: ChipId, label: string, value: string | undefined, param: FilterParam) => {
    const text = value ? `${label}: ${value}` : label;
    return (
      <span key={id} className={`filter-chip-group${value ? '' : ' filter-chip-unset'}`}>
        {menus ? (
          <menus.ChipMenu id={id} text={text} active={Boolean(value)} state={state} defaultOpen={opening === id} />
        ) : (
          <PlainChip id={id} text={text} active={Boolean(value)} onOpen={setOpening} />
        )}
        {value && (
          <button
            type="button"
            className="filter-chip-remove"
            aria-label={`Quitar filtro ${label}`}
            onClick={() => setFilter(param, null)}
          >
            <span aria-hidden="true">×</span>
          </button>
        )}
      </span>
    );
  };

  const sortLabel = SORTS.find((option) => option.value === sort)?.label ?? '';
  return (
    <form className="filter-bar" role="search" aria-label="Filtros" onSubmit={(event) => event.preventDefault()}>
      <div className="filter-bar-top">
        <SearchBox value={filters.query ?? ''} onSearch={(value) => setFilter('q', value)} />
        {menus ? (
          <menus.FiltersSheet state={state} activeCount={activeCount} defaultOpen={opening === 'sheet'} />
        ) : (
          <button type="button" className="button filters-button" onClick={() => setOpening('sheet')}>
            {/* One run of text: a separate element would be a flex item, and its leading space would be dropped. */}
            Filtros{activeCount > 0 ? ` (${activeCount})` : ''}
          </button>
        )}
      </div>
      <div className="filter-chips">
        {shownChoices.map((key) =>
          chip(
            key,
            FILE_FILTERS[key].label,
            filters[key] ? choiceLabel(key, filters[key]) : undefined,
            FILE_FILTERS[key].param,
          ),
        )}
        {chip('tagId', FILE_FILTERS.tagId.label, filters.tagId ? (tagName ?? '…') : undefined, 'tag')}
        {isEnabled('collections') &&
          chip(
            'collectionId',
            FILE_FILTERS.collectionId.label,
            filters.collectionId ? (collectionName ?? '…') : undefined,
            'collection',
          )}
        {active && (
          <button type="button" className="link-button filter-clear" onClick={clear}>
            Quitar filtros
          </button>
        )}
        <span className={`filter-sort${sort === DEFAULT_SORT ? ' filter-chip-unset' : ''}`}>
          {menus ? (
            <menus.ChipMenu
              id="sort"
              text={`Orden: ${sortLabel}`}
              active={false}
              state={state}
              defaultOpen={opening === 'sort'}
            />
          ) : (
            <PlainChip id="sort" text={`Orden: ${sortLabel}`} active={false} onOpen={setOpening} />
          )}
        </span>
      </div>
    </form>
  );
}
