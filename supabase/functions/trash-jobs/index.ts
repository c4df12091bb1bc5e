// Moves the objects of deleted and replaced files to the trash on demand (the server's job queue does it
// after every delete and replacement, see run-jobs); any member of the library staff may ask.
import { json, serve } from '../_shared/http.ts';
import { requireStaff, serviceClient } from '../_shared/auth.ts';
import { moveTrashedObjects } from '../_shared/jobs/trash.ts';

serve(async (request) => {
  await requireStaff(request, ['ADMIN', 'UPLOADER']);
  return json(200, await moveTrashedObjects(serviceClient()));
});
