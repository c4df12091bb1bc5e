import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { rightsExpiringQuery } from '../api/count-rights-expiring.ts';
import { FILTER_PARAMS } from '../api/file-filters.ts';
import { paths } from '../../../config/paths.ts';
import { plural } from '../../../lib/plural.ts';

/** The published files whose rights run out within 30 days, as the 'Derechos' and 'Estado' filters find them. */
const expiringPublished = `${paths.files}?${new URLSearchParams({
  [FILTER_PARAMS.rights]: 'expiring',
  [FILTER_PARAMS.status]: 'published',
}).toString()}`;

/** For admins: how many active files will have to come down soon, with the way to see them. */
export function RightsExpiringNotice() {
  const count = useQuery(rightsExpiringQuery);
  if (!count.data) return null;
  return (
    <p className="files-rights-notice" role="status">
      {count.data === 1
        ? '1 archivo activo tiene derechos que caducan en los próximos 30 días. '
        : `${plural(count.data, 'archivo activo', 'archivos activos')} tienen derechos que caducan en los próximos 30 días. `}
      <Link to={expiringPublished}>Ver: Caducan en 30 días</Link>
    </p>
  );
}
