import { useState } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import * as Popover from '@radix-ui/react-popover';
import { useQuery } from '@tanstack/react-query';
import { collectionsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { CHOICE_KEYS, DEFAULT_SORT, FILE_FILTERS, SORTS, choiceOptions, type ChoiceKey } from '../api/file-filters.ts';
import type { FileFiltersState, FilterParam } from '../hooks/use-file-filters.ts';
import { TagCommand } from './tag-command.tsx';

export { FiltersSheet } from './filters-sheet.tsx';

/** The chip of one filter on the bar: what opens its menu. */
export type ChipId = ChoiceKey | 'tagId' | 'collectionId' | 'sort' | 'sheet';

interface Option {
  value: string;
  label: string;
}

interface ChipMenuProps {
  id: ChipId;
  text: string;
  active: boolean;
  state: FileFiltersState;
  defaultOpen: boolean;
}

function Trigger({ text, active }: { text: string; active: boolean }) {
  return (
    <>
      <span>{text}</span>
      <span aria-hidden="true" className="filter-chip-caret">
        ▾
      </span>
      {active && <span className="visually-hidden"> (activo)</span>}
    </>
  );
}

/** A chip's menu of exclusive choices (Radix dropdown with a radio group): the first one unsets the filter. */
function RadioMenu({
  text,
  active,
  defaultOpen,
  value,
  options,
  onChange,
}: {
  text: string;
  active: boolean;
  defaultOpen: boolean;
  value: string;
  options: readonly Option[];
  onChange: (value: string) => void;
}) {
  return (
    <DropdownMenu.Root defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className={`filter-chip${active ? ' filter-chip-active' : ''}`}>
        <Trigger text={text} active={active} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" sideOffset={4} align="start" collisionPadding={8}>
          <DropdownMenu.RadioGroup value={value} onValueChange={onChange}>
            {options.map((option) => (
              <DropdownMenu.RadioItem key={option.value} value={option.value} className="menu-item menu-radio">
                <DropdownMenu.ItemIndicator className="menu-check" aria-hidden="true">
                  ✓
                </DropdownMenu.ItemIndicator>
                {option.label}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

const UNSET = '';

/** The tag filter: a popover with the tags grouped by category and a search field. */
function TagMenu({ text, active, defaultOpen, state }: Omit<ChipMenuProps, 'id'>) {
  const [open, setOpen] = useState(defaultOpen);
  const choose = (tagId: string | null) => {
    state.setFilter('tag', tagId);
    setOpen(false);
  };
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger className={`filter-chip${active ? ' filter-chip-active' : ''}`}>
        <Trigger text={text} active={active} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="menu tag-menu" sideOffset={4} align="start" collisionPadding={8}>
          <TagCommand
            label="Filtrar por etiqueta"
            selected={new Set(state.filters.tagId ? [state.filters.tagId] : [])}
            onSelect={choose}
            anyOption={{ label: 'Cualquier etiqueta', onSelect: () => choose(null) }}
            autoFocus
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function CollectionMenu({ text, active, defaultOpen, state }: Omit<ChipMenuProps, 'id'>) {
  const collections = useQuery(collectionsQuery);
  const options = [
    { value: UNSET, label: 'Todas' },
    ...(collections.data ?? []).map((collection) => ({ value: collection.id, label: collection.name })),
  ];
  return (
    <RadioMenu
      text={text}
      active={active}
      defaultOpen={defaultOpen}
      value={state.filters.collectionId ?? UNSET}
      options={options}
      onChange={(value) => state.setFilter('collection', value || null)}
    />
  );
}

/** The menu behind one chip of the filter bar. */
export function ChipMenu({ id, text, active, state, defaultOpen }: ChipMenuProps) {
  if (id === 'tagId') return <TagMenu text={text} active={active} state={state} defaultOpen={defaultOpen} />;
  if (id === 'collectionId') {
    return <CollectionMenu text={text} active={active} state={state} defaultOpen={defaultOpen} />;
  }
  if (id === 'sort') {
    return (
      <RadioMenu
        text={text}
        active={active}
        defaultOpen={defaultOpen}
        value={state.sort}
        options={SORTS}
        onChange={(value) => state.setFilter('sort', value === DEFAULT_SORT ? null : value)}
      />
    );
  }
  if (id === 'sheet' || !CHOICE_KEYS.includes(id)) return null;
  return (
    <RadioMenu
      text={text}
      active={active}
      defaultOpen={defaultOpen}
      value={state.filters[id] ?? UNSET}
      options={choiceOptions(id)}
      onChange={(value) => state.setFilter(FILE_FILTERS[id].param as FilterParam, value || null)}
    />
  );
}
