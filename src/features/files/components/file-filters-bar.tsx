import { useQuery } from '@tanstack/react-query';
import { tagsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { isEnabled } from '../../../config/deployment.ts';
import { DEFAULT_SORT, SORTS, type useFileFilters } from '../hooks/use-file-filters.ts';
import { SearchBox } from './search-box.tsx';

type Filters = ReturnType<typeof useFileFilters>;

/** The filters of the files screen (spec section 2), all kept in the URL. */
export function FileFiltersBar({ filters, sort, setFilter, clear, active }: Filters) {
  const tags = useQuery(tagsQuery);
  return (
    <form className="filters" role="search" aria-label="Filtros" onSubmit={(event) => event.preventDefault()}>
      <SearchBox value={filters.query ?? ''} onSearch={(value) => setFilter('q', value)} />
      <label className="filter">
        <span>Tipo</span>
        <select
          value={filters.type ?? 'all'}
          onChange={(event) => setFilter('type', event.target.value === 'all' ? null : event.target.value)}
        >
          <option value="all">Todos</option>
          <option value="image">Imágenes</option>
          <option value="not-image">Documentos</option>
        </select>
      </label>
      <label className="filter">
        <span>Etiqueta</span>
        <select value={filters.tagId ?? ''} onChange={(event) => setFilter('tag', event.target.value || null)}>
          <option value="">Cualquier etiqueta</option>
          {(tags.data ?? []).map((tag) => (
            <option key={tag.id} value={tag.id}>
              {tag.name_es}
            </option>
          ))}
        </select>
      </label>
      <label className="filter">
        <span>Orden</span>
        <select
          value={sort}
          onChange={(event) => setFilter('sort', event.target.value === DEFAULT_SORT ? null : event.target.value)}
        >
          {SORTS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <label className="filter">
        <span>Estado</span>
        <select
          value={filters.status ?? 'all'}
          onChange={(event) => setFilter('status', event.target.value === 'all' ? null : event.target.value)}
        >
          <option value="all">Todos</option>
          <option value="published">Activos</option>
          <option value="unpublished">No activos</option>
        </select>
      </label>
      {isEnabled('operations') && (
        <label className="filter">
          <span>Operaciones</span>
          <select
            value={filters.operations ?? 'all'}
            onChange={(event) => setFilter('operations', event.target.value === 'all' ? null : event.target.value)}
          >
            <option value="all">Todos</option>
            <option value="OPERATIONS">Operaciones</option>
          </select>
        </label>
      )}
      <label className="filter">
        <span>Traducción</span>
        <select
          value={filters.translation ?? 'all'}
          onChange={(event) => setFilter('translation', event.target.value === 'all' ? null : event.target.value)}
        >
          <option value="all">Todas</option>
          <option value="missing">Sin traducir</option>
        </select>
      </label>
      <label className="filter">
        <span>Duplicados</span>
        <select
          value={filters.duplicates ?? 'all'}
          onChange={(event) => setFilter('duplicates', event.target.value === 'all' ? null : event.target.value)}
        >
          <option value="all">Todos</option>
          <option value="only">Solo duplicados</option>
        </select>
      </label>
      <button type="button" className="button" onClick={clear} disabled={!active}>
        Quitar filtros
      </button>
    </form>
  );
}
