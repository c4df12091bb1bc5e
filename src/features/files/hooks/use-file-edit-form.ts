import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
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
import { rightsUpdate } from '../lib/rights-values.ts';
import { rightsState } from '../lib/rights.ts';
import { notify } from '../../../lib/notify.ts';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';

interface Conflict {
  theirs: FileFormValues;
  version: FileVersion;
  fields: Array<keyof FileFormValues>;
}

/**
 * The file form's state: the saved file is its starting point and its version. A save made after someone
 * else's is refused by the database and both versions are kept for the person to choose. While the user is
 * editing, other people's changes never overwrite the form.
 */
export function useFileEditForm(file: FileDetail, isAdmin: boolean) {
  const queryClient = useQueryClient();
  const save = useUpdateFile();
  const [base, setBase] = useState(() => ({ values: formValuesOf(file), version: versionOf(file) }));
  const [conflict, setConflict] = useState<Conflict | null>(null);
  // A save that would take an active file off every public place, held until the person confirms it.
  const [expiryToConfirm, setExpiryToConfirm] = useState<FileFormValues | null>(null);
  const form = useSchemaForm(fileFormSchema, { mode: 'onChange', delayError: 100, defaultValues: base.values });
  const { reset, formState, getValues } = form;
  // 'Sin traducir': the English title still the Spanish one, or a description not yet translated. Watched here
  // rather than in the fields, so the whole form re-renders as they are typed and a conflict shown above it
  // compares the texts typed now.
  const [nameEs, nameEn, descriptionEs, descriptionEn] = useWatch({
    control: form.control,
    name: ['name_es', 'name_en', 'description_es', 'description_en'],
  });
  const translation = {
    nameEs,
    titleUntranslated: !nameEn?.trim() || nameEn.trim() === nameEs?.trim(),
    descriptionUntranslated: !!descriptionEs?.trim() && !descriptionEn?.trim(),
  };

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
          if (leavesPublicPlaces(file, values)) {
            notify.info('El archivo ya no se publica: sus derechos han caducado.');
          }
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

  return {
    form,
    save,
    translation,
    conflict,
    onSubmit: form.handleSubmit((values) =>
      leavesPublicPlaces(file, values) ? setExpiryToConfirm(values) : submit(values, base.version),
    ),
    expiryToConfirm: expiryToConfirm && {
      day: expiryToConfirm.rights_expire_on,
      confirm: () => {
        setExpiryToConfirm(null);
        submit(expiryToConfirm, base.version);
      },
      cancel: () => setExpiryToConfirm(null),
    },
    keepYours: (chosen: Conflict) => submit(getValues(), chosen.version),
    takeTheirs: (chosen: Conflict) => {
      reset(chosen.theirs);
      setBase({ values: chosen.theirs, version: chosen.version });
      setConflict(null);
      notify.info('Se muestra la versión guardada por la otra persona.');
    },
  };
}

/**
 * Whether saving these values takes a file that is public now off its public page, its share links and the
 * feed: it is Activo and the new 'Caducan el' is a day before today (a file may still be used on its last
 * day, as private.file_is_public says).
 */
export const leavesPublicPlaces = (
  file: Pick<FileDetail, 'published' | 'rights_expire_on'>,
  values: Pick<FileFormValues, 'rights_expire_on'>,
) =>
  file.published &&
  rightsState(file.rights_expire_on) !== 'expired' &&
  rightsState(values.rights_expire_on || null) === 'expired';

export type Translation = ReturnType<typeof useFileEditForm>['translation'];
