import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { CopyLinkButton } from '../../../components/share-link/copy-link-button.tsx';
import { rememberedShareLinkUrl } from '../../../lib/links/share-links.ts';
import { spanishError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { plural } from '../../../lib/plural.ts';
import { shareLinksQueryOptions, shareLinkState, STATE_LABELS, type ShareLinkRow } from '../api/get-share-links.ts';
import { useRevokeShareLink } from '../api/change-share-link.ts';
import { EditLinkDialog } from './edit-link-dialog.tsx';
import '../links.css';

/** What a link shares, in the list's words. */
export const sharedWhat = (link: ShareLinkRow) =>
  link.kind === 'collection'
    ? link.collection
      ? `Colección «${link.collection.name}»`
      : 'Colección borrada'
    : plural(link.file_count, 'archivo', 'archivos');

/** /private/links: every shared link with its use, state, and what an admin can do with it. */
export function LinksScreen() {
  const links = useQuery(shareLinksQueryOptions());
  const [search, setSearch] = useState('');
  const wanted = useDeferredValue(search.trim().toLocaleLowerCase('es'));
  const shown = links.data?.filter((link) =>
    [link.name, sharedWhat(link), link.created_by_email ?? ''].some((text) =>
      text.toLocaleLowerCase('es').includes(wanted),
    ),
  );
  return (
    <section className="page links-page">
      <PageHeader title="Enlaces">
        <p className="muted">
          Enlaces a archivos o colecciones para personas de fuera. Se crean con «Compartir enlace» en Archivos, en una
          colección o en la ficha de un archivo.
        </p>
      </PageHeader>
      {links.isPending ? (
        <SkeletonList rows={4} label="Cargando enlaces…" />
      ) : links.isError ? (
        <p className="form-error" role="alert">
          {spanishError(links.error)}
        </p>
      ) : links.data.length === 0 ? (
        <EmptyState title="Todavía no hay enlaces">
          Selecciona archivos en Archivos y pulsa «Compartir enlace».
        </EmptyState>
      ) : (
        <>
          <div className="list-search" role="search">
            <label htmlFor="links-search" className="visually-hidden">
              Buscar enlace
            </label>
            <input
              id="links-search"
              type="search"
              placeholder="Buscar enlace…"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
          {shown?.length === 0 ? (
            <p className="muted">Ningún enlace coincide con «{search.trim()}».</p>
          ) : (
            <ul className="links-list" aria-label="Enlaces">
              {shown?.map((link) => (
                <LinkRow key={link.id} link={link} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function LinkRow({ link }: { link: ShareLinkRow }) {
  const revoke = useRevokeShareLink();
  const [confirming, setConfirming] = useState(false);
  const state = shareLinkState(link);
  const url = rememberedShareLinkUrl(link.id);
  return (
    <li className="links-row" aria-label={link.name}>
      <div className="links-row-main">
        <strong className="links-row-name">{link.name}</strong>
        <span className={`links-state links-state-${state}`}>{STATE_LABELS[state]}</span>
      </div>
      <dl className="links-row-facts">
        <div>
          <dt>Comparte</dt>
          <dd>{sharedWhat(link)}</dd>
        </div>
        <div>
          <dt>Creado por</dt>
          <dd>{link.created_by_email ?? '—'}</dd>
        </div>
        <div>
          <dt>Caduca</dt>
          <dd>{link.expires_at ? formatDateTime(link.expires_at) : 'Sin caducidad'}</dd>
        </div>
        <div>
          <dt>Visitas</dt>
          <dd>{link.views.toLocaleString('es-ES')}</dd>
        </div>
        <div>
          <dt>Descargas</dt>
          <dd>
            {link.downloads.toLocaleString('es-ES')}
            {!link.allow_downloads && ' (no permitidas)'}
          </dd>
        </div>
        {link.has_password && (
          <div>
            <dt>Contraseña</dt>
            <dd>Sí</dd>
          </div>
        )}
      </dl>
      <div className="links-row-actions">
        {url ? (
          <CopyLinkButton url={url} className="button button-small" label={`Copiar enlace de ${link.name}`} />
        ) : (
          <span
            className="muted links-row-hint"
            title="Por seguridad el enlace solo se guarda en el navegador que lo creó"
          >
            Enlace solo disponible donde se creó
          </span>
        )}
        {state !== 'revoked' && <EditLinkDialog link={link} />}
        {state !== 'revoked' && (
          <button
            type="button"
            className="button button-small button-danger"
            disabled={revoke.isPending}
            onClick={() => setConfirming(true)}
          >
            Revocar
          </button>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        trigger={null}
        title="Revocar enlace"
        description={`¿Seguro que deseas revocar el enlace «${link.name}»? Dejará de funcionar al momento para todos y no se puede deshacer.`}
        confirmLabel="Revocar"
        onConfirm={() => revoke.mutate(link.id)}
      />
    </li>
  );
}
