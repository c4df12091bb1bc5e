import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import { EmptyState } from '../../../components/ui/empty-state.tsx';

/** The list or its count could not be loaded: say so, with a way to ask again. */
export function FilesLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <p role="alert" className="form-error">
      No se pudieron cargar los archivos.{' '}
      <button type="button" className="link-button link-button-inline" onClick={onRetry}>
        Reintentar
      </button>
    </p>
  );
}

/**
 * No files to show: with filters on, the way to take them off; with none, the library itself is empty and the
 * way is to upload.
 */
export function FilesEmpty({ filtered, onClearFilters }: { filtered: boolean; onClearFilters: () => void }) {
  if (filtered) {
    return (
      <EmptyState
        title="Ningún archivo coincide con estos filtros"
        action={
          <button type="button" className="button" onClick={onClearFilters}>
            Quitar todos los filtros
          </button>
        }
      >
        <p>Prueba con otras palabras o quita algún filtro.</p>
      </EmptyState>
    );
  }
  return (
    <EmptyState
      title="Todavía no hay archivos"
      action={
        <Link className="button button-primary" to={paths.upload}>
          Subir Archivos
        </Link>
      }
    >
      <p>Las fotos y documentos que subas aparecerán aquí.</p>
    </EmptyState>
  );
}
