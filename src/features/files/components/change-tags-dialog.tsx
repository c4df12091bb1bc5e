import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import type { TagChange } from '../api/change-files-tags.ts';
import { TagCommand } from './tag-command.tsx';
import { plural } from '../../../lib/plural.ts';

interface ChangeTagsDialogProps {
  change: TagChange | null;
  count: number;
  pending: boolean;
  onClose: () => void;
  onApply: (tagIds: string[]) => void;
}

const TITLES: Record<TagChange, string> = { add: 'Añadir etiquetas', remove: 'Quitar etiquetas' };

/**
 * 'Añadir etiquetas' / 'Quitar etiquetas' of a selection: tick one tag or several in the searchable list, then
 * apply. Unlike 'Editar tags', every file keeps its other tags.
 */
export function ChangeTagsDialog({ change, count, pending, onClose, onApply }: ChangeTagsDialogProps) {
  return (
    <Dialog.Root open={change !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog change-tags-dialog">
          {change && <ChangeTagsForm change={change} count={count} pending={pending} onApply={onApply} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ChangeTagsForm({
  change,
  count,
  pending,
  onApply,
}: Omit<ChangeTagsDialogProps, 'change' | 'onClose'> & { change: TagChange }) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (tagId: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(tagId)) next.add(tagId);
      return next;
    });
  const files = plural(count, 'archivo seleccionado', 'archivos seleccionados');
  const verb = change === 'add' ? 'Añadir' : 'Quitar';
  return (
    <>
      <Dialog.Title className="dialog-title">{TITLES[change]}</Dialog.Title>
      <Dialog.Description className="dialog-description">
        {change === 'add'
          ? `Las etiquetas elegidas se añadirán a ${files}, que conservarán las que ya tienen.`
          : `Las etiquetas elegidas se quitarán de ${files}; las demás etiquetas no cambian.`}
      </Dialog.Description>
      <TagCommand label="Buscar etiqueta" selected={chosen} onSelect={toggle} autoFocus />
      <div className="dialog-actions">
        <Dialog.Close className="button" type="button">
          Cancelar
        </Dialog.Close>
        <button
          type="button"
          className="button button-primary"
          disabled={chosen.size === 0 || pending}
          onClick={() => onApply([...chosen])}
        >
          {chosen.size === 0 ? verb : `${verb} ${plural(chosen.size, 'etiqueta', 'etiquetas')}`}
        </button>
      </div>
    </>
  );
}
