import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useQuery } from '@tanstack/react-query';
import type { FileDetail } from '../api/get-file-detail.ts';
import { useUpdateFile } from '../api/update-file.ts';
import { TagPicker } from './tag-picker.tsx';
import { useIsAdmin } from '../../../lib/auth/auth-provider.tsx';
import { collectionsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { isEnabled } from '../../../config/deployment.ts';

const REQUIRED = 'El campo es obligatorio.';
const tooLong = (max: number) => `El campo no debe ser mayor a ${max} caracteres.`;

const formSchema = z.object({
  name_es: z.string().trim().min(1, REQUIRED).max(500, tooLong(500)),
  name_en: z.string().trim().min(1, REQUIRED).max(500, tooLong(500)),
  description_es: z.string().max(10000, tooLong(10000)),
  description_en: z.string().max(10000, tooLong(10000)),
  b2b: z.boolean(),
  operations: z.boolean(),
  tagIds: z.array(z.string()),
  collectionIds: z.array(z.string()),
});
type FormValues = z.infer<typeof formSchema>;

const valuesOf = (file: FileDetail): FormValues => ({
  name_es: file.name_es,
  name_en: file.name_en,
  description_es: file.description_es,
  description_en: file.description_en,
  b2b: file.b2b,
  operations: file.operations,
  tagIds: file.file_tags.map((link) => link.tag_id),
  collectionIds: file.collection_files.map((link) => link.collection_id),
});

/**
 * The file's texts, options, tags and collections (spec section 2). The saved file is the form's starting
 * point; when it changes (a save, or another person's edit) the form follows it unless the user is in the
 * middle of editing: unsaved edits are never overwritten.
 */
export function FileEditForm({ file }: { file: FileDetail }) {
  const isAdmin = useIsAdmin();
  const collections = useQuery({ ...collectionsQuery, enabled: isAdmin });
  const save = useUpdateFile();
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    mode: 'onChange',
    delayError: 100,
    defaultValues: valuesOf(file),
  });
  const errors = form.formState.errors;
  const { reset, formState } = form;
  useEffect(() => {
    if (!formState.isDirty) reset(valuesOf(file));
    // Only a new version of the file resets the form, not every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file.updated_at, file.file_tags, file.collection_files]);
  const submit = form.handleSubmit((values) =>
    save.mutate(
      {
        fileId: file.id,
        texts: {
          name_es: values.name_es,
          name_en: values.name_en,
          description_es: values.description_es,
          description_en: values.description_en,
        },
        options: isAdmin ? { b2b: values.b2b, operations: values.operations } : undefined,
        tagIds: values.tagIds,
        collectionIds: isAdmin ? values.collectionIds : undefined,
      },
      // What was saved is the new starting point: the form is clean again.
      { onSuccess: () => reset(values) },
    ),
  );

  return (
    <form className="file-form" onSubmit={(event) => void submit(event)} noValidate>
      <fieldset>
        <legend>Español</legend>
        <label htmlFor="name_es">Título</label>
        <input id="name_es" {...form.register('name_es')} aria-invalid={!!errors.name_es} />
        {errors.name_es && <span className="form-error">{errors.name_es.message}</span>}
        <label htmlFor="description_es">Descripción</label>
        <textarea id="description_es" rows={3} {...form.register('description_es')} />
        {errors.description_es && <span className="form-error">{errors.description_es.message}</span>}
      </fieldset>
      <fieldset>
        <legend>English</legend>
        <label htmlFor="name_en">Título (inglés)</label>
        <input id="name_en" {...form.register('name_en')} aria-invalid={!!errors.name_en} />
        {errors.name_en && <span className="form-error">{errors.name_en.message}</span>}
        <label htmlFor="description_en">Descripción (inglés)</label>
        <textarea id="description_en" rows={3} {...form.register('description_en')} />
        {errors.description_en && <span className="form-error">{errors.description_en.message}</span>}
      </fieldset>
      {isAdmin && (
        <fieldset>
          <legend>Opciones</legend>
          <label className="checkbox">
            <input type="checkbox" {...form.register('b2b')} /> B2B
          </label>
          {isEnabled('operations') && (
            <label className="checkbox">
              <input type="checkbox" {...form.register('operations')} /> Operaciones
            </label>
          )}
        </fieldset>
      )}
      <Controller
        control={form.control}
        name="tagIds"
        render={({ field }) => <TagPicker value={field.value} onChange={field.onChange} />}
      />
      {isAdmin && isEnabled('collections') && (
        <fieldset className="tag-group">
          <legend>Colecciones</legend>
          {(collections.data ?? []).map((collection) => (
            <label key={collection.id} className="checkbox">
              <input type="checkbox" value={collection.id} {...form.register('collectionIds')} /> {collection.name}
            </label>
          ))}
        </fieldset>
      )}
      <div className="form-sticky-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          Guardar
        </button>
        {form.formState.isDirty && !save.isPending && <span className="muted">Cambios sin guardar</span>}
      </div>
    </form>
  );
}
