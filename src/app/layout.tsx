import { NavLink, Outlet } from 'react-router-dom';
import { deployment, isEnabled } from '../config/deployment.ts';
import { paths } from '../config/paths.ts';
import { useAuth, useIsAdmin } from '../features/auth/auth-provider.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { useUploadActivity } from './upload-activity.tsx';

/** The top bar of every private screen (spec section 2). Admin entries mirror the role in the database. */
export function PrivateLayout() {
  const isAdmin = useIsAdmin();
  const { signOut } = useAuth();
  const { uploading } = useUploadActivity();
  const adminLinks = [
    { to: paths.tags, label: 'Etiquetas', enabled: true },
    { to: paths.users, label: 'Usuarios', enabled: isEnabled('users') },
    { to: paths.collections, label: 'Colecciones', enabled: isEnabled('collections') },
    { to: paths.academy, label: 'Academy', enabled: isEnabled('academy') },
    { to: paths.operations, label: 'Operaciones', enabled: isEnabled('operations') },
  ].filter((link) => link.enabled);

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
        <nav aria-label="Principal">
          <ul>
            <li>
              <NavLink to={paths.files}>Archivos</NavLink>
            </li>
            <li>
              <NavLink to={paths.upload}>
                Subir Archivos {uploading && <Spinner size="small" label="Subiendo archivos" />}
              </NavLink>
            </li>
            {isAdmin &&
              adminLinks.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to}>{link.label}</NavLink>
                </li>
              ))}
            <li>
              <button type="button" className="link-button" onClick={() => void signOut()}>
                Salir
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
