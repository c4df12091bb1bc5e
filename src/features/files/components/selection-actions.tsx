import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { Collection, SelectionActions } from '../hooks/use-selection-actions.ts';

/** The selection's actions as buttons, on a screen wide enough for them (the styles hide them on a phone). */
export function InlineSelectionActions({ actions }: { actions: SelectionActions }) {
  const { busy, zipStatus } = actions;
  return (
    <div className="selection-actions-inline">
      {actions.showDeactivate && (
        <button type="button" className="button" disabled={busy} onClick={() => actions.setPublished(false)}>
          Desactivar
        </button>
      )}
      {actions.showActivate && (
        <button type="button" className="button" disabled={busy} onClick={() => actions.setPublished(true)}>
          Activar
        </button>
      )}
      <button
        type="button"
        className="button"
        disabled={zipStatus !== null}
        aria-busy={zipStatus !== null}
        title={zipStatus ?? undefined}
        onClick={actions.downloadZip}
      >
        Descargar ZIP
      </button>
      {actions.isAdmin && (
        <button type="button" className="button selection-share-inline" onClick={() => actions.setSharing(true)}>
          Compartir enlace
        </button>
      )}
      <DropdownMenu.Root>
        <DropdownMenu.Trigger className="button selection-tags-inline" disabled={busy}>
          Etiquetas...
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" sideOffset={4} align="end" collisionPadding={8}>
            <TagChangeItems actions={actions} />
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {actions.withCollections && (
        <DropdownMenu.Root>
          <DropdownMenu.Trigger className="button" disabled={busy}>
            Añadir a colección...
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" sideOffset={4} align="end" collisionPadding={8}>
              <CollectionItems collections={actions.collections} onAdd={actions.addCollection} />
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      )}
    </div>
  );
}

/** The 'Más acciones' menu: on a phone, every action but 'Editar tags' is here. */
export function MoreSelectionActions({ actions }: { actions: SelectionActions }) {
  const { busy } = actions;
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="button selection-more" aria-label="Más acciones">
        <span aria-hidden="true">⋯</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className={actions.withCollections ? 'menu menu-with-list' : 'menu'}
          sideOffset={4}
          align="end"
          collisionPadding={8}
        >
          {actions.showDeactivate && (
            <DropdownMenu.Item className="menu-item" disabled={busy} onSelect={() => actions.setPublished(false)}>
              Desactivar
            </DropdownMenu.Item>
          )}
          {actions.showActivate && (
            <DropdownMenu.Item className="menu-item" disabled={busy} onSelect={() => actions.setPublished(true)}>
              Activar
            </DropdownMenu.Item>
          )}
          <TagChangeItems actions={actions} />
          <DropdownMenu.Item className="menu-item" disabled={actions.zipStatus !== null} onSelect={actions.downloadZip}>
            Descargar ZIP
          </DropdownMenu.Item>
          {actions.isAdmin && (
            <DropdownMenu.Item className="menu-item" onSelect={() => actions.setSharing(true)}>
              Compartir enlace
            </DropdownMenu.Item>
          )}
          {actions.isAdmin && (
            <DropdownMenu.Item
              className="menu-item menu-item-danger"
              disabled={!actions.canAskToDelete}
              onSelect={actions.askToDelete}
            >
              Borrar
            </DropdownMenu.Item>
          )}
          {/*
           * The collections last, in a list that scrolls on its own: with many of them every action above stays in
           * view. Listed in this menu, not in a submenu: on a phone a submenu has no room beside it.
           */}
          {actions.withCollections && (
            <DropdownMenu.Group className="menu-group" aria-labelledby="selection-collections-label">
              <DropdownMenu.Separator className="menu-separator" />
              <DropdownMenu.Label className="menu-label" id="selection-collections-label">
                Añadir a colección...
              </DropdownMenu.Label>
              <div className="menu-scroll-list">
                <CollectionItems collections={actions.collections} onAdd={actions.addCollection} disabled={busy} />
              </div>
            </DropdownMenu.Group>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** 'Añadir etiquetas...' and 'Quitar etiquetas...', each opening the tag list (ChangeTagsDialog). */
function TagChangeItems({ actions }: { actions: SelectionActions }) {
  return (
    <>
      <DropdownMenu.Item className="menu-item" disabled={actions.busy} onSelect={() => actions.setTagging('add')}>
        Añadir etiquetas...
      </DropdownMenu.Item>
      <DropdownMenu.Item className="menu-item" disabled={actions.busy} onSelect={() => actions.setTagging('remove')}>
        Quitar etiquetas...
      </DropdownMenu.Item>
    </>
  );
}

function CollectionItems({
  collections = [],
  onAdd,
  disabled = false,
}: {
  collections?: Collection[];
  onAdd: (collection: Collection) => void;
  disabled?: boolean;
}) {
  if (collections.length === 0) {
    return (
      <DropdownMenu.Item className="menu-item" disabled>
        No hay colecciones
      </DropdownMenu.Item>
    );
  }
  return collections.map((collection) => (
    <DropdownMenu.Item key={collection.id} className="menu-item" disabled={disabled} onSelect={() => onAdd(collection)}>
      {collection.name}
    </DropdownMenu.Item>
  ));
}
