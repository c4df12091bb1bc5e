import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { categoriesQueryOptions } from '../api/get-categories.ts';
import { videoSchema, type VideoForm as VideoFormValues } from '../lib/schemas.ts';
import { academyPaths } from '../paths.ts';
import { LockIcon } from './lock-icon.tsx';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';

interface VideoFormProps {
  defaultValues: VideoFormValues;
  onSubmit: (values: VideoFormValues) => void;
  pending: boolean;
  submitLabel: string;
}

/** Title (required), language es/en and categories of a video; its link is fixed once fetched. */
export function VideoForm({ defaultValues, onSubmit, pending, submitLabel }: VideoFormProps) {
  const categories = useQuery(categoriesQueryOptions());
  const form = useSchemaForm(videoSchema, { defaultValues });
  const titleError = form.formState.errors.title?.message;

  return (
    <form className="academy-form" onSubmit={(event) => void form.handleSubmit(onSubmit)(event)} noValidate>
      <label htmlFor="video-title">Título</label>
      <input
        id="video-title"
        aria-invalid={titleError ? true : undefined}
        aria-describedby={titleError ? 'video-title-error' : undefined}
        {...form.register('title')}
      />
      {titleError && (
        <p id="video-title-error" className="form-error" role="alert">
          {titleError}
        </p>
      )}
      <label htmlFor="video-language">Idioma</label>
      <select id="video-language" {...form.register('language')}>
        <option value="es">Español</option>
        <option value="en">Inglés</option>
      </select>
      <fieldset className="academy-checkboxes">
        <legend>Categorías</legend>
        {categories.isPending && <p className="muted">Cargando categorías…</p>}
        {categories.data?.length === 0 && (
          <p className="muted">
            No hay categorías. <Link to={academyPaths.newCategory}>Crear una categoría</Link>
          </p>
        )}
        {categories.data?.map((category) => (
          <label key={category.id} className="checkbox">
            <input type="checkbox" value={category.id} {...form.register('categoryIds')} />
            {category.name_es}
            {category.is_private && <LockIcon />}
          </label>
        ))}
      </fieldset>
      <div className="academy-form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? 'Guardando…' : submitLabel}
        </button>
        <Link className="button" to={academyPaths.videos}>
          Cancelar
        </Link>
      </div>
    </form>
  );
}
