import { CheckboxField, TextField } from '../../../components/ui/form-fields.tsx';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fileDetailQuery, type FileDetail } from '../api/get-file-detail.ts';
import { isFileChangedError, useUpdateFile } from '../api/update-file.ts';
import {
  changedFields,
  fileFormSchema,
  formValuesOf,
  savedEnglishTitle,
  versionOf,
  type FileFormValues,
  type FileVersion,
} from '../lib/file-form-values.ts';
import { prefilledRights, rightsUpdate } from '../lib/rights-values.ts';
import { TagPicker } from './tag-picker.tsx';
import { SuggestedTags } from './suggested-tags.tsx';
import { RightsFields } from './rights-fields.tsx';
import { FileConflict } from './file-conflict.tsx';
import { useIsAdmin } from '../../../lib/auth/auth-provider.tsx';
import { collectionsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { isEnabled } from '../../../config/deployment.ts';
import { notify } from '../../../lib/notify.ts';
import { UnsavedChangesGuard } from '../../../components/ui/unsaved-changes-guard.tsx';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';

interface Conflict {
  theirs: FileFormValues;
  version: FileVersion;
  fields: Array<keyof FileFormValues>;
}

/**
 * The file's texts, options, tags and collections. The saved file is the form's starting
 * point and its version: a save made after someone else's is refused by the database and both versions are
 * shown. While the user is editing, other people's changes never overwrite the form.
 */
export function FileEditForm({ file }: { file: FileDetail }) {
  const isAdmin = useIsAdmin();
  const queryClient = useQueryClient();
  const collections = useQuery({ ...collectionsQuery, enabled: isAdmin });
  const save = useUpdateFile();
  const [base, setBase] = useState(() => ({ values: formValuesOf(file), version: versionOf(file) }));
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const form = useSchemaForm(fileFormSchema, { mode: 'onChange', delayError: 100, defaultValues: base.values });
  const { reset, formState, getValues } = form;
  const errors = formState.errors;
  // 'Sin traducir': the English title still the Spanish one, or a description not yet translated.
  const [nameEs, nameEn, descriptionEs, descriptionEn] = useWatch({
    control: form.control,
    name: ['name_es', 'name_en', 'description_es', 'description_en'],
  });
  const titleUntranslated = !nameEn?.trim() || nameEn.trim() === nameEs?.trim();
  const descriptionUntranslated = !!descriptionEs?.trim() && !descriptionEn?.trim();
  const prefilled = useMemo(() => prefilledRights(file), [file]);

  useEffect(() => {
    if (formState.isDirty) return;
    const values = formValuesOf(file);
    reset(values);
    // The form (react-hook-form, outside React state) and its base version move together, once per new version.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setBase({ values, version: versionOf(file) });
    // Only a new version of the file resets the form, not every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file.updated_at, file.file_tags, file.collection_files]);

  const submit = (values: FileFormValues, version: FileVersion) =>
    save.mutate(
      {
        fileId: file.id,
        texts: {
          name_es: values.name_es,
          name_en: savedEnglishTitle(values),
          description_es: values.description_es,
          description_en: values.description_en,
        },
        options: isAdmin ? { b2b: values.b2b, operations: values.operations } : undefined,
        tagIds: values.tagIds,
        collectionIds: isAdmin ? values.collectionIds : undefined,
        rights: rightsUpdate(file, values),
        expected: { ...version, collectionIds: isAdmin ? version.collectionIds : undefined },
      },
      {
        onSuccess: (saved) => {
          // What was saved is the new starting point and version: the form is clean again.
          reset(values);
          setConflict(null);
          setBase({ values, version: { ...version, updatedAt: saved.updated_at, tagIds: values.tagIds } });
        },
        onError: async (error) => {
          if (!isFileChangedError(error)) return;
          const latest = await queryClient.fetchQuery({ ...fileDetailQuery(file.id), staleTime: 0 });
          const theirs = formValuesOf(latest);
          const fields = changedFields(base.values, theirs);
          // Only the server's own columns moved (e.g. processing finished): nothing of theirs to lose.
          if (fields.length === 0) return submit(values, versionOf(latest));
          setConflict({ theirs, version: versionOf(latest), fields });
        },
      },
    );

  return (
    <form
      className="file-form"
      onSubmit={(event) => void form.handleSubmit((values) => submit(values, base.version))(event)}
      noValidate
    >
      {conflict && (
        <FileConflict
          fields={conflict.fields}
          theirs={conflict.theirs}
          yours={getValues()}
          busy={save.isPending}
          onKeepYours={() => submit(getValues(), conflict.version)}
          onTakeTheirs={() => {
            reset(conflict.theirs);
            setBase({ values: conflict.theirs, version: conflict.version });
            setConflict(null);
            notify.info('Se muestra la versión guardada por la otra persona.');
          }}
        />
      )}
      <UnsavedChangesGuard dirty={formState.isDirty && !save.isPending} />
      <div className="file-form-languages">
        <fieldset>
          <legend>Español</legend>
          <TextField
            id="name_es"
            label="Título"
            {...form.register('name_es')}
            invalid={!!errors.name_es}
            error={errors.name_es?.message}
          />
          <label htmlFor="description_es">Descripción</label>
          <textarea id="description_es" rows={3} {...form.register('description_es')} />
          {errors.description_es && <span className="form-error">{errors.description_es.message}</span>}
        </fieldset>
        <fieldset>
          <legend>English</legend>
          <label htmlFor="name_en">Título (inglés)</label>
          <input
            id="name_en"
            {...form.register('name_en')}
            placeholder={nameEs}
            aria-invalid={!!errors.name_en}
            aria-describedby={titleUntranslated ? 'name_en-hint' : undefined}
          />
          {errors.name_en && <span className="form-error">{errors.name_en.message}</span>}
          {!errors.name_en && titleUntranslated && (
            <span id="name_en-hint" className="translation-hint">
              Falta la traducción al inglés del título.
            </span>
          )}
          <label htmlFor="description_en">Descripción (inglés)</label>
          <textarea id="description_en" rows={3} {...form.register('description_en')} />
          {errors.description_en && <span className="form-error">{errors.description_en.message}</span>}
          {descriptionUntranslated && (
            <span className="translation-hint">Falta la traducción al inglés de la descripción.</span>
          )}
        </fieldset>
      </div>
      <RightsFields form={form} prefilled={prefilled} expiryAdminOnly={!isAdmin && file.rights_expire_on !== null} />
      {isAdmin && (
        <fieldset>
          <legend>Opciones</legend>
          <CheckboxField label="B2B" {...form.register('b2b')} />
          {isEnabled('operations') && <CheckboxField label="Operaciones" {...form.register('operations')} />}
        </fieldset>
      )}
      <Controller
        control={form.control}
        name="tagIds"
        render={({ field }) => (
          <>
            <TagPicker value={field.value} onChange={field.onChange} />
            <SuggestedTags
              fileId={file.id}
              chosen={field.value}
              onAdd={(tagId) => field.onChange([...field.value, tagId])}
            />
          </>
        )}
      />
      {isAdmin && isEnabled('collections') && (
        <fieldset className="file-form-collections">
          <legend>Colecciones</legend>
          {(collections.data ?? []).map((collection) => (
            <CheckboxField
              key={collection.id}
              label={collection.name}
              value={collection.id}
              {...form.register('collectionIds')}
            />
          ))}
        </fieldset>
      )}
      <div className="form-sticky-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          Guardar
        </button>
        {formState.isDirty && !save.isPending && <span className="muted">Cambios sin guardar</span>}
      </div>
    </form>
  );
}
