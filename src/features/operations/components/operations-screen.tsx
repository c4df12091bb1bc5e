import { CheckboxField, FormActions, TextField } from '../../../components/ui/form-fields.tsx';
import { Fragment, useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { spanishError } from '../../../lib/errors.ts';
import { useOperationsPopup } from '../api/get-operations-popup.ts';
import { useUpdateOperationsPopup } from '../api/update-operations-popup.ts';
import { storedToMessage } from '../api/popup-message.ts';
import { popupSchema, type PopupValues } from '../api/popup-schema.ts';
import '../../../components/ui/admin-form.css';
import '../operations.css';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';

/** The form stays locked for 1 s after saving, so a double click cannot save twice. */
const LOCK_AFTER_SAVE_MS = 1000;

/** Operaciones: the popup the hotel's operations staff see. */
export function OperationsScreen() {
  const popup = useOperationsPopup();
  return (
    <section className="page">
      <PageHeader title="Operaciones">
        <p className="muted">El aviso que ve el personal de recepción y operaciones mientras está activo.</p>
      </PageHeader>
      {popup.error ? (
        <p className="form-error" role="alert">
          {spanishError(popup.error)}
        </p>
      ) : !popup.data ? (
        <SkeletonList rows={3} label="Cargando el aviso…" />
      ) : (
        <PopupForm
          initial={{
            title: popup.data.title,
            message: storedToMessage(popup.data.message),
            active: popup.data.active,
          }}
          updatedAt={popup.data.updated_at}
        />
      )}
    </section>
  );
}

function PopupForm({ initial, updatedAt }: { initial: PopupValues; updatedAt: string }) {
  const save = useUpdateOperationsPopup();
  const [locked, setLocked] = useState(false);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useSchemaForm(popupSchema, { defaultValues: initial });
  const preview = useWatch({ control });

  useEffect(() => {
    if (!locked) return;
    const timer = setTimeout(() => setLocked(false), LOCK_AFTER_SAVE_MS);
    return () => clearTimeout(timer);
  }, [locked]);

  const submit = handleSubmit((values) => save.mutate(values, { onSuccess: () => setLocked(true) }));
  const message = errors.title?.message ?? errors.message?.message;
  const busy = save.isPending || locked;

  return (
    <div className="operations-layout">
      <form
        className="admin-form"
        onSubmit={submit}
        noValidate
        aria-describedby="popup-message-error"
        aria-busy={busy}
        data-locked={locked}
      >
        <fieldset disabled={busy} className="admin-form-fields">
          <TextField id="popup-title" label="Título" invalid={!!errors.title} {...register('title')} />
          <label htmlFor="popup-message">Mensaje</label>
          <textarea
            id="popup-message"
            aria-invalid={!!errors.message}
            aria-describedby="popup-message-hint"
            {...register('message')}
          />
          <p id="popup-message-hint" className="admin-form-hint">
            Texto sin formato: los saltos de línea se conservan.
          </p>
          <CheckboxField label="Aviso activo" {...register('active')} />
        </fieldset>
        <p id="popup-message-error" className="form-error" role="alert">
          {message}
        </p>
        <FormActions pending={save.isPending} disabled={busy}>
          <span className="muted operations-saved">Última modificación: {formatDateTime(updatedAt)}</span>
        </FormActions>
      </form>
      <aside className="operations-preview" aria-labelledby="popup-preview-title">
        <h2 id="popup-preview-title" className="operations-preview-label">
          Vista previa{' '}
          <span className={preview.active ? 'operations-status is-active' : 'operations-status'}>
            {preview.active ? 'Activo' : 'No activo'}
          </span>
        </h2>
        <div className="operations-preview-card" data-testid="popup-preview">
          <p className="operations-preview-title">{preview.title || 'Sin título'}</p>
          <p className="operations-preview-message">
            {(preview.message ?? '').split('\n').map((line, index) => (
              <Fragment key={index}>
                {index > 0 && <br />}
                {line}
              </Fragment>
            ))}
          </p>
        </div>
      </aside>
    </div>
  );
}
