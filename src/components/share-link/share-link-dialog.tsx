import { useId, useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import {
  EXPIRY_CHOICES,
  expiryFrom,
  useCreateShareLink,
  type ExpiryChoice,
  type ShareTarget,
} from '../../lib/links/share-links.ts';
import { spanishError } from '../../lib/errors.ts';
import { CopyLinkButton } from './copy-link-button.tsx';
import '../ui/admin-form.css';
import './share-link.css';

interface ShareLinkDialogProps {
  target: ShareTarget;
  /** The name the form starts with (the collection's or the file's). */
  defaultName: string;
  /** The button's class (it sits in the selection bar, a page header…). */
  triggerClassName?: string;
  /** Controlled use (opened from a menu item); omit for a dialog with its own 'Compartir enlace' button. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/**
 * 'Compartir enlace' (admins): the link's name, expiry, optional password and whether originals may be
 * downloaded; once created, the link itself with 'Copiar enlace'. Used from the files selection bar, a
 * collection and a file's detail, so it lives with the shared UI.
 */
export function ShareLinkDialog({ target, defaultName, triggerClassName, open, onOpenChange }: ShareLinkDialogProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  const setOpen = onOpenChange ?? setOwnOpen;
  return (
    <Dialog.Root open={isOpen} onOpenChange={setOpen}>
      {open === undefined && <Dialog.Trigger className={triggerClassName ?? 'button'}>Compartir enlace</Dialog.Trigger>}
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog share-link-dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">Compartir enlace</Dialog.Title>
          {isOpen && <ShareLinkForm target={target} defaultName={defaultName} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ShareLinkForm({ target, defaultName }: { target: ShareTarget; defaultName: string }) {
  const id = useId();
  const create = useCreateShareLink();
  const [name, setName] = useState(defaultName);
  const [expiry, setExpiry] = useState<ExpiryChoice>('30');
  const [date, setDate] = useState('');
  const [password, setPassword] = useState('');
  const [allowDownloads, setAllowDownloads] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);

  if (create.data) {
    return (
      <div className="share-link-created">
        <p className="dialog-description">Cualquiera con este enlace podrá ver los archivos compartidos.</p>
        <label htmlFor={`${id}-url`}>Enlace</label>
        <input
          id={`${id}-url`}
          className="share-link-url"
          readOnly
          value={create.data.url}
          onFocus={(e) => e.target.select()}
        />
        <div className="dialog-actions">
          <Dialog.Close className="button">Cerrar</Dialog.Close>
          <CopyLinkButton url={create.data.url} className="button button-primary" />
        </div>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return setProblem('El campo Nombre es obligatorio');
    if (expiry === 'date' && !date) return setProblem('Elige la fecha de caducidad');
    if (password !== '' && password.length < 4) return setProblem('La contraseña debe tener al menos 4 caracteres');
    setProblem(null);
    create.mutate({ target, name: name.trim(), expiresAt: expiryFrom(expiry, date), password, allowDownloads });
  };
  const message = problem ?? (create.error ? spanishError(create.error, 'No se pudo crear el enlace') : null);

  return (
    <form className="admin-form share-link-form" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-name`}>Nombre</label>
      <input id={`${id}-name`} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
      <label htmlFor={`${id}-expiry`}>Caducidad</label>
      <select id={`${id}-expiry`} value={expiry} onChange={(e) => setExpiry(e.target.value as ExpiryChoice)}>
        {EXPIRY_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {expiry === 'date' && (
        <>
          <label htmlFor={`${id}-date`}>Fecha de caducidad</label>
          <input
            id={`${id}-date`}
            type="date"
            value={date}
            min={new Date().toISOString().slice(0, 10)}
            onChange={(e) => setDate(e.target.value)}
          />
        </>
      )}
      <label htmlFor={`${id}-password`}>Contraseña (opcional)</label>
      <input
        id={`${id}-password`}
        type="password"
        autoComplete="new-password"
        value={password}
        maxLength={200}
        onChange={(e) => setPassword(e.target.value)}
      />
      <label className="checkbox">
        <input type="checkbox" checked={allowDownloads} onChange={(e) => setAllowDownloads(e.target.checked)} />{' '}
        Permitir descargas
      </label>
      <p className="form-error" role="alert">
        {message}
      </p>
      <div className="dialog-actions">
        <Dialog.Close className="button" type="button">
          Cancelar
        </Dialog.Close>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? 'Creando…' : 'Crear enlace'}
        </button>
      </div>
    </form>
  );
}
