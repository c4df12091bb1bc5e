import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { FileDetail } from '../api/get-file-detail.ts';
import { prefilledRights } from '../lib/rights-values.ts';
import { useFileEditForm } from '../hooks/use-file-edit-form.ts';
import { FileTextsFields } from './file-texts-fields.tsx';
import { FileCollectionsFields, FileOptionsFields, FileTagsField } from './file-choice-fields.tsx';
import { RightsFields } from './rights-fields.tsx';
import { FileConflict } from './file-conflict.tsx';
import { useIsAdmin } from '../../../lib/auth/auth-provider.tsx';
import { collectionsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { isEnabled } from '../../../config/deployment.ts';
import { UnsavedChangesGuard } from '../../../components/ui/unsaved-changes-guard.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { formatDay } from '../lib/rights.ts';

/**
 * The file's texts, options, tags and collections. The saved file is the form's starting
 * point and its version: a save made after someone else's is refused by the database and both versions are
 * shown. While the user is editing, other people's changes never overwrite the form.
 */
export function FileEditForm({ file }: { file: FileDetail }) {
  const isAdmin = useIsAdmin();
  const collections = useQuery({ ...collectionsQuery, enabled: isAdmin });
  const { form, save, translation, conflict, onSubmit, keepYours, takeTheirs, expiryToConfirm } = useFileEditForm(
    file,
    isAdmin,
  );
  const { formState, getValues } = form;
  const prefilled = useMemo(() => prefilledRights(file), [file]);

  return (
    <form className="file-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      {conflict && (
        <FileConflict
          fields={conflict.fields}
          theirs={conflict.theirs}
          yours={getValues()}
          busy={save.isPending}
          onKeepYours={() => keepYours(conflict)}
          onTakeTheirs={() => takeTheirs(conflict)}
        />
      )}
      {expiryToConfirm && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && expiryToConfirm.cancel()}
          trigger={null}
          title="¿Guardar una caducidad ya pasada?"
          description={`Los derechos caducaron el ${formatDay(expiryToConfirm.day)}. Al guardar, el archivo dejará de publicarse: saldrá de su página pública, de los enlaces compartidos y del feed, aunque siga Activo en la mediateca.`}
          confirmLabel="Guardar y dejar de publicar"
          onConfirm={expiryToConfirm.confirm}
        />
      )}
      <UnsavedChangesGuard dirty={formState.isDirty && !save.isPending} />
      <FileTextsFields form={form} translation={translation} />
      <RightsFields form={form} prefilled={prefilled} expiryAdminOnly={!isAdmin && file.rights_expire_on !== null} />
      {isAdmin && <FileOptionsFields form={form} />}
      <FileTagsField form={form} fileId={file.id} />
      {isAdmin && isEnabled('collections') && <FileCollectionsFields form={form} collections={collections.data} />}
      <div className="form-sticky-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          Guardar
        </button>
        {formState.isDirty && !save.isPending && <span className="muted">Cambios sin guardar</span>}
      </div>
    </form>
  );
}
