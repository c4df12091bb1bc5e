import { useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useIsMutating } from '@tanstack/react-query';
import { deployment } from '../config/deployment.ts';
import { paths, signOutState } from '../config/paths.ts';
import { accountPaths } from '../features/account/account-paths.ts';
import { useIsAdmin } from '../lib/auth/auth-provider.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { WorkingIndicator } from '../components/ui/working-indicator.tsx';
import { useUploadActivity } from '../lib/uploads/upload-activity.tsx';
import { enabledAdminSections, type AdminSection } from './admin-sections.ts';
import { ConnectionBanner } from '../components/ui/connection-banner.tsx';

const adminSections = enabledAdminSections(deployment.features);

/** The top bar of every private screen (spec section 2). Admin entries mirror the role in the database. */
export function PrivateLayout() {
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();
  const { uploading } = useUploadActivity();
  // Every write goes through a React Query mutation, so "an action is running" is exactly this count.
  const working = useIsMutating() > 0;
  // Below 768 px the menu folds behind a button; it folds again whenever the screen changes.
  const location = useLocation();
  const [menu, setMenu] = useState({ open: false, at: location.pathname });
  const menuOpen = menu.open && menu.at === location.pathname;

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Saltar al contenido
      </a>
      <header className="top-bar">
        <NavLink to={paths.files} className="brand">
          <img src={deployment.logo} alt="" width={28} height={28} />
          <span>{deployment.name}</span>
        </NavLink>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-menu"
          onClick={() => setMenu({ open: !menuOpen, at: location.pathname })}
        >
          <span aria-hidden="true">☰</span> Menú
        </button>
        <nav aria-label="Principal" id="main-menu" className={menuOpen ? 'main-menu main-menu-open' : 'main-menu'}>
          <ul>
            <li>
              <NavLink to={paths.files}>Archivos</NavLink>
            </li>
            <li>
              <NavLink to={paths.upload}>
                Subir Archivos {uploading && <Spinner size="small" label="Subiendo archivos" />}
              </NavLink>
            </li>
            {isAdmin && adminSections.length > 0 && (
              <li className="admin-sections-menu">
                <AdminSectionsMenu sections={adminSections} pathname={location.pathname} />
              </li>
            )}
            {isAdmin &&
              adminSections.map((section) => (
                <li key={section.to} className="admin-section-entry">
                  <NavLink to={section.to}>{section.label}</NavLink>
                </li>
              ))}
            <li>
              <NavLink to={accountPaths.account}>Mi cuenta</NavLink>
            </li>
            <li>
              {/* Salir goes to a plain /login: the next person to sign in starts at the files screen, not here. */}
              <button
                type="button"
                className="link-button"
                onClick={() => void navigate(paths.login, { replace: true, state: signOutState })}
              >
                Salir
              </button>
            </li>
          </ul>
        </nav>
        <WorkingIndicator active={working} />
      </header>
      <ConnectionBanner />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}

/**
 * The admin sections behind one 'Administración' menu (a Radix dropdown) where the bar is too narrow to list
 * them (768–1399 px, styles.css): the bar stays one line, as it does listing them all on a wide screen and
 * folded behind 'Menú' on a phone. Only one of the two forms is displayed at any width.
 */
function AdminSectionsMenu({ sections, pathname }: { sections: readonly AdminSection[]; pathname: string }) {
  const inSection = sections.some((section) => pathname === section.to || pathname.startsWith(`${section.to}/`));
  return (
    // Not modal: a menu of links in the bar, like the bar itself; the page stays in the accessibility tree.
    <DropdownMenu.Root modal={false}>
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
