// Regenerates the public feed on demand (the server's job queue does it after every change that affects
// it, see run-jobs); any member of the library staff may ask.
import { json, serve } from '../_shared/http.ts';
import { requireStaff, serviceClient } from '../_shared/auth.ts';
import { regenerateFeed } from '../_shared/jobs/public-feed.ts';

serve(async (request) => {
  await requireStaff(request, ['ADMIN', 'UPLOADER']);
  return json(200, await regenerateFeed(serviceClient()));
});
