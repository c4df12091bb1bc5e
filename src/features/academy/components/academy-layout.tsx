import { Link, Outlet, useLocation } from 'react-router-dom';
import { FetchedVideoProvider } from '../lib/fetched-video.tsx';
import { useAcademyLive } from '../api/use-academy-live.ts';
import { academyPaths } from '../paths.ts';
import '../academy.css';

const TABS = [
  {
    label: 'Vídeos',
    to: academyPaths.videos,
    owns: (path: string) => !/\/(categories|.*-category|users|edit-user)/.test(path),
  },
  {
    label: 'Categorías',
    to: academyPaths.categories,
    owns: (path: string) => /\/(categories|new-category|edit-category)/.test(path),
  },
  { label: 'Usuarios', to: academyPaths.users, owns: (path: string) => /\/(users|edit-user)/.test(path) },
] as const;

/**
 * The Academy's tabs (Vídeos, Categorías, Usuarios). Each tab is a route, so they are links marked
 * with aria-current rather than an ARIA tablist: the browser's back button and shared URLs keep working.
 */
export function AcademyLayout() {
  useAcademyLive();
  const { pathname } = useLocation();
  return (
    <FetchedVideoProvider>
      <div className="page academy">
        <nav className="academy-tabs" aria-label="Secciones de Academy">
          {TABS.map((tab) => {
            const current = tab.owns(pathname);
            return (
              <Link
                key={tab.to}
                to={tab.to}
                className={current ? 'academy-tab academy-tab-current' : 'academy-tab'}
                aria-current={current ? 'page' : undefined}
              >
                {tab.label}
              </Link>
            );
          })}
        </nav>
        <Outlet />
      </div>
    </FetchedVideoProvider>
  );
}
