import { useQuery } from '@tanstack/react-query';
import { tagsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { isEnabled } from '../../../config/deployment.ts';
import { DEFAULT_SORT, SORTS, type useFileFilters } from '../hooks/use-file-filters.ts';
import { SearchBox } from './search-box.tsx';

type Filters = ReturnType<typeof useFileFilters>;

interface FilterSelectProps {
  label: string;
  value: string;
  /** The option meaning "no filter": choosing it removes the parameter from the URL. */
  unset: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  onChange: (value: string | null) => void;
}

function FilterSelect({ label, value, unset, options, onChange }: FilterSelectProps) {
  return (
    <label className="filter">
      <span>{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value === unset ? null : event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const ALL = 'all';

/** The filters of the files screen (spec section 2), all kept in the URL. */
export function FileFiltersBar({ filters, sort, setFilter, clear, active }: Filters) {
  const tags = useQuery(tagsQuery);
  return (
    <form className="filters" role="search" aria-label="Filtros" onSubmit={(event) => event.preventDefault()}>
      <SearchBox value={filters.query ?? ''} onSearch={(value) => setFilter('q', value)} />
      <FilterSelect
        label="Tipo"
        value={filters.type ?? ALL}
        unset={ALL}
        options={[
          { value: ALL, label: 'Todos' },
          { value: 'image', label: 'Imágenes' },
          { value: 'not-image', label: 'Documentos' },
        ]}
        onChange={(value) => setFilter('type', value)}
      />
      <FilterSelect
        label="Etiqueta"
        value={filters.tagId ?? ''}
        unset=""
        options={[
          { value: '', label: 'Cualquier etiqueta' },
          ...(tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name_es })),
        ]}
        onChange={(value) => setFilter('tag', value)}
      />
      <FilterSelect
        label="Orden"
        value={sort}
        unset={DEFAULT_SORT}
        options={SORTS}
        onChange={(value) => setFilter('sort', value)}
      />
      <FilterSelect
        label="Estado"
        value={filters.status ?? ALL}
        unset={ALL}
        options={[
          { value: ALL, label: 'Todos' },
          { value: 'published', label: 'Activos' },
          { value: 'unpublished', label: 'No activos' },
        ]}
        onChange={(value) => setFilter('status', value)}
      />
      {isEnabled('operations') && (
        <FilterSelect
          label="Operaciones"
          value={filters.operations ?? ALL}
          unset={ALL}
          options={[
            { value: ALL, label: 'Todos' },
            { value: 'OPERATIONS', label: 'Operaciones' },
          ]}
          onChange={(value) => setFilter('operations', value)}
        />
      )}
      <FilterSelect
        label="Traducción"
        value={filters.translation ?? ALL}
        unset={ALL}
        options={[
          { value: ALL, label: 'Todas' },
          { value: 'missing', label: 'Sin traducir' },
        ]}
        onChange={(value) => setFilter('translation', value)}
      />
      <FilterSelect
        label="Duplicados"
        value={filters.duplicates ?? ALL}
        unset={ALL}
        options={[
          { value: ALL, label: 'Todos' },
          { value: 'only', label: 'Solo duplicados' },
        ]}
        onChange={(value) => setFilter('duplicates', value)}
      />
      <button type="button" className="button" onClick={clear} disabled={!active}>
        Quitar filtros
      </button>
    </form>
  );
}
