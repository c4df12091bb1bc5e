import { useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useIsMutating } from '@tanstack/react-query';
import { deployment } from '../config/deployment.ts';
import { paths, signOutState } from '../config/paths.ts';
import { accountPaths } from '../features/account/paths.ts';
import { useIsAdmin } from '../lib/auth/auth-provider.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { WorkingIndicator } from '../components/ui/working-indicator.tsx';
import { useUploadActivity } from '../lib/uploads/upload-activity.tsx';
import { enabledAdminSections } from './admin-sections.ts';
import { onDemand } from '../lib/on-demand.ts';
import { ConnectionBanner } from '../components/ui/connection-banner.tsx';

const adminSections = enabledAdminSections(deployment.features);
// The menu's Radix code loads just after the first paint, not with the app's initial JavaScript.
const adminMenuModule = onDemand(() => import('./admin-sections-menu.tsx'));

/** The top bar of every private screen. Admin entries mirror the role in the database. */
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
  const AdminSectionsMenu = adminMenuModule.useModule(isAdmin && adminSections.length > 0)?.AdminSectionsMenu;
  // A click on 'Administración' before its menu has loaded opens it once it has.
  const [adminMenuWanted, setAdminMenuWanted] = useState(false);

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
              <NavLink to={paths.upload} className="upload-nav-link">
                Subir Archivos
                {/* The spinner's place is kept while idle: an upload starting must not widen the bar and wrap it. */}
                <span className="nav-activity">{uploading && <Spinner size="small" label="Subiendo archivos" />}</span>
              </NavLink>
            </li>
            {isAdmin && adminSections.length > 0 && (
              <li className="admin-sections-menu">
                {AdminSectionsMenu ? (
                  <AdminSectionsMenu
                    sections={adminSections}
                    pathname={location.pathname}
                    defaultOpen={adminMenuWanted}
                  />
                ) : (
                  <button
                    type="button"
                    className="link-button admin-menu-trigger"
                    aria-haspopup="menu"
                    aria-expanded={false}
                    onClick={() => setAdminMenuWanted(true)}
                  >
                    Administración <span aria-hidden="true">▾</span>
                  </button>
                )}
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
