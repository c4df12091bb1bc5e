// Rebuilds the public feed on demand: every page is marked due and the server's job queue writes them in
// bounded steps (see _shared/jobs/public-feed.ts; it also keeps the feed current after every change by
// itself). Any member of the library staff may ask.
import { json, serve } from '../_shared/http.ts';
import { requireStaff, serviceClient } from '../_shared/auth.ts';

serve(async (request) => {
  await requireStaff(request, ['ADMIN', 'UPLOADER']);
  const { data, error } = await serviceClient().rpc('rebuild_public_feed');
  if (error) throw error;
  return json(202, { pagesQueued: data as number });
});
