import { useId, useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { EXPIRY_CHOICES, expiryFrom, type ExpiryChoice } from '../../../lib/links/share-links.ts';
import { formatDateTime } from '../../../lib/format.ts';
import type { ShareLinkRow } from '../api/get-share-links.ts';
import { useUpdateShareLink } from '../api/change-share-link.ts';
import '../../../components/ui/admin-form.css';
import '../../../components/share-link/share-link.css';

type ExpiryEdit = 'keep' | ExpiryChoice;
type PasswordEdit = 'keep' | 'set' | 'remove';

/** 'Editar' of one link: its name, expiry, password and whether originals may be downloaded. */
export function EditLinkDialog({ link }: { link: ShareLinkRow }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="button button-small" aria-label={`Editar ${link.name}`}>
        Editar
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog share-link-dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">Editar enlace</Dialog.Title>
          {open && <EditLinkForm link={link} onDone={() => setOpen(false)} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function EditLinkForm({ link, onDone }: { link: ShareLinkRow; onDone: () => void }) {
  const id = useId();
  const update = useUpdateShareLink();
  const [name, setName] = useState(link.name);
  const [expiry, setExpiry] = useState<ExpiryEdit>('keep');
  const [date, setDate] = useState('');
  const [passwordAction, setPasswordAction] = useState<PasswordEdit>('keep');
  const [password, setPassword] = useState('');
  const [allowDownloads, setAllowDownloads] = useState(link.allow_downloads);
  const [problem, setProblem] = useState<string | null>(null);
  const current = link.expires_at ? `hasta el ${formatDateTime(link.expires_at)}` : 'sin caducidad';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return setProblem('El campo Nombre es obligatorio');
    if (expiry === 'date' && !date) return setProblem('Elige la fecha de caducidad');
    if (passwordAction === 'set' && password.length < 4)
      return setProblem('La contraseña debe tener al menos 4 caracteres');
    setProblem(null);
    const expiresAt =
      expiry === 'keep' ? (link.expires_at ? new Date(link.expires_at) : null) : expiryFrom(expiry, date);
    update.mutate(
      { id: link.id, name: name.trim(), expiresAt, allowDownloads, passwordAction, password },
      { onSuccess: onDone },
    );
  };

  return (
    <form className="admin-form share-link-form" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-name`}>Nombre</label>
      <input id={`${id}-name`} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
      <label htmlFor={`${id}-expiry`}>Caducidad</label>
      <select id={`${id}-expiry`} value={expiry} onChange={(e) => setExpiry(e.target.value as ExpiryEdit)}>
        <option value="keep">Como está ({current})</option>
        {EXPIRY_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.value === 'never' || choice.value === 'date' ? choice.label : `${choice.label} desde hoy`}
          </option>
        ))}
      </select>
      {expiry === 'date' && (
        <>
          <label htmlFor={`${id}-date`}>Fecha de caducidad</label>
          <input id={`${id}-date`} type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </>
      )}
      <label htmlFor={`${id}-password-action`}>Contraseña</label>
      <select
        id={`${id}-password-action`}
        value={passwordAction}
        onChange={(e) => setPasswordAction(e.target.value as PasswordEdit)}
      >
        <option value="keep">{link.has_password ? 'Mantener la contraseña' : 'Sin contraseña'}</option>
        <option value="set">{link.has_password ? 'Cambiar la contraseña' : 'Poner contraseña'}</option>
        {link.has_password && <option value="remove">Quitar la contraseña</option>}
      </select>
      {passwordAction === 'set' && (
        <>
          <label htmlFor={`${id}-password`}>Nueva contraseña</label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            value={password}
            maxLength={200}
            onChange={(e) => setPassword(e.target.value)}
          />
        </>
      )}
      <label className="checkbox">
        <input type="checkbox" checked={allowDownloads} onChange={(e) => setAllowDownloads(e.target.checked)} />{' '}
        Permitir descargas
      </label>
      <p className="form-error" role="alert">
        {problem}
      </p>
      <div className="dialog-actions">
        <Dialog.Close className="button" type="button">
          Cancelar
        </Dialog.Close>
        <button type="submit" className="button button-primary" disabled={update.isPending}>
          Guardar
        </button>
      </div>
    </form>
  );
}
