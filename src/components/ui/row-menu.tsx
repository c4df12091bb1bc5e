import { useState, type ReactNode } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from './confirm-dialog.tsx';

export type RowAction =
  | { label: string; to: string }
  | { label: string; onSelect: () => void }
  /** Destructive: asks `question` in a confirmation dialog first, then runs `onConfirm`. */
  | { label: string; danger: { title: string; question: ReactNode; onConfirm: () => void } };

/**
 * A list row's secondary actions behind one '⋯' button (a Radix dropdown menu), as admin lists in Directus:
 * the row itself stays calm, with at most one destructive action, asked for in a dialog.
 */
export function RowMenu({ name, actions, disabled }: { name: string; actions: RowAction[]; disabled?: boolean }) {
  const [confirming, setConfirming] = useState<Extract<RowAction, { danger: unknown }> | null>(null);
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger className="row-menu-trigger" aria-label={`Acciones de ${name}`} disabled={disabled}>
          <span aria-hidden="true">⋯</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" sideOffset={4} align="end" collisionPadding={8}>
            {actions.map((action) =>
              'to' in action ? (
                <DropdownMenu.Item key={action.label} className="menu-item" asChild>
                  <Link to={action.to}>{action.label}</Link>
                </DropdownMenu.Item>
              ) : 'onSelect' in action ? (
                <DropdownMenu.Item key={action.label} className="menu-item" onSelect={action.onSelect}>
                  {action.label}
                </DropdownMenu.Item>
              ) : (
                <DropdownMenu.Item
                  key={action.label}
                  className="menu-item menu-item-danger"
                  onSelect={() => setConfirming(action)}
                >
                  {action.label}
                </DropdownMenu.Item>
              ),
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        trigger={null}
        title={confirming?.danger.title ?? ''}
        description={confirming?.danger.question}
        onConfirm={() => confirming?.danger.onConfirm()}
      />
    </>
  );
}
