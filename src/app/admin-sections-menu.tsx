import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { NavLink } from 'react-router-dom';
import type { AdminSection } from './admin-sections.ts';

/**
 * The admin sections behind one 'Administración' menu (a Radix dropdown) where the bar is too narrow to list
 * them (768–1399 px, styles.css): the bar stays one line, as it does listing them all on a wide screen and
 * folded behind 'Menú' on a phone. Only one of the two forms is displayed at any width.
 */
export function AdminSectionsMenu({
  sections,
  pathname,
  defaultOpen,
}: {
  sections: readonly AdminSection[];
  pathname: string;
  defaultOpen: boolean;
}) {
  const inSection = sections.some((section) => pathname === section.to || pathname.startsWith(`${section.to}/`));
  return (
    // Not modal: a menu of links in the bar, like the bar itself; the page stays in the accessibility tree.
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className={`link-button admin-menu-trigger${inSection ? ' active' : ''}`}>
        Administración <span aria-hidden="true">▾</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" sideOffset={6} align="start" collisionPadding={8}>
          {sections.map((section) => (
            <DropdownMenu.Item key={section.to} className="menu-item" asChild>
              <NavLink to={section.to}>{section.label}</NavLink>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
