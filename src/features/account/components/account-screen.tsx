import { useState } from 'react';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { FormMessage, firstError } from '../../../components/ui/form-message.tsx';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { deployment } from '../../../config/deployment.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useFactors } from '../api/get-factors.ts';
import { useEnrollAuthenticator, type Enrolment } from '../api/enroll-authenticator.ts';
import { useConfirmAuthenticator } from '../api/verify-code.ts';
import { useRemoveAuthenticator } from '../api/remove-authenticator.ts';
import { codeSchema } from '../api/code-schema.ts';
import { accountErrorMessage } from '../api/account-errors.ts';
import { CodeField } from './code-field.tsx';
import { ChangePasswordPanel } from './change-password-panel.tsx';
import '../account.css';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';

/** Scan the QR code (or type the key), then confirm with a first code. */
function EnrolmentForm({ enrolment, onDone }: { enrolment: Enrolment; onDone: () => void }) {
  const confirm = useConfirmAuthenticator();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useSchemaForm(codeSchema, { defaultValues: { code: '' } });
  const submit = handleSubmit(({ code }) =>
    confirm.mutate({ factorId: enrolment.factorId, code }, { onSuccess: onDone }),
  );
  const message =
    firstError(errors) ??
    (confirm.error ? accountErrorMessage(confirm.error, 'No se pudo comprobar el código.') : null);
  return (
    <div className="account-enrol">
      <ol className="account-steps">
        <li>Abre tu aplicación de autenticación (Google Authenticator, Microsoft Authenticator, 1Password…).</li>
        <li>Escanea este código QR o escribe la clave que aparece debajo.</li>
        <li>Escribe el código de 6 cifras que te muestra la aplicación.</li>
      </ol>
      <img className="account-qr" src={enrolment.qrCode} alt="Código QR para añadir la Mediateca a tu aplicación" />
      <p className="account-secret">
        Clave: <code data-testid="totp-secret">{enrolment.secret}</code>
      </p>
      <form className="account-form account-confirm" onSubmit={submit} noValidate aria-describedby="enrol-message">
        <CodeField id="enrol-code" invalid={!!errors.code || !!confirm.error} registration={register('code')} />
        <FormMessage id="enrol-message" message={message} />
        <button type="submit" className="button button-primary" disabled={confirm.isPending}>
          {confirm.isPending ? 'Comprobando…' : 'Confirmar'}
        </button>
      </form>
    </div>
  );
}

/** /private/account ('Mi cuenta'): who is signed in, their password, and the authenticator app for two-step sign-in. */
export function AccountScreen() {
  const { state, recheckRole } = useAuth();
  const factors = useFactors();
  const enroll = useEnrollAuthenticator();
  const remove = useRemoveAuthenticator();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const email = state.status === 'signedIn' ? state.session.user.email : '';
  const verified = factors.data?.find((factor) => factor.status === 'verified');

  return (
    <section className="page account-page">
      <PageHeader title="Mi cuenta">
        <p className="muted">{email}</p>
      </PageHeader>
      <ChangePasswordPanel email={email ?? ''} />
      <section className="account-panel" aria-labelledby="mfa-title">
        <h2 id="mfa-title">Verificación en dos pasos</h2>
        <p>
          Además de la contraseña, al entrar se pedirá un código de 6 cifras de una aplicación de tu móvil. Así nadie
          puede entrar solo con tu contraseña.
          {deployment.requireAdminMfa && ' Los administradores la necesitan para usar las funciones de administración.'}
        </p>
        {factors.isPending ? (
          <SkeletonList rows={1} />
        ) : verified ? (
          <div className="account-status">
            <p role="status">
              <strong>Activada</strong> desde el {formatDateTime(verified.created_at)}.
            </p>
            <ConfirmDialog
              trigger={
                <button type="button" className="button button-danger" disabled={remove.isPending}>
                  Quitar la aplicación
                </button>
              }
              title="Quitar la verificación en dos pasos"
              description="¿Seguro que deseas quitar la aplicación de autenticación? Al entrar ya no se pedirá el código."
              confirmLabel="Quitar"
              onConfirm={() => remove.mutate(verified.id, { onSuccess: () => void recheckRole() })}
            />
          </div>
        ) : enrolment ? (
          <EnrolmentForm
            enrolment={enrolment}
            onDone={() => {
              setEnrolment(null);
              void recheckRole();
            }}
          />
        ) : (
          <button
            type="button"
            className="button button-primary"
            disabled={enroll.isPending}
            onClick={() => enroll.mutate(undefined, { onSuccess: setEnrolment })}
          >
            {enroll.isPending ? 'Preparando…' : 'Activar verificación en dos pasos'}
          </button>
        )}
      </section>
    </section>
  );
}
