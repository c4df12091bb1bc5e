// Works off the trash jobs, in the order they were queued: deleting or replacing a file moves its object
// from `media` to the private `trash` bucket (restorable); restoring it from the Papelera moves it back
// (bucket_id `trash`, trash_bucket_id `media`); purging it removes it from the trash (action `remove`).
// A move is one atomic step of Storage, so the bytes are always in exactly one of the two places; a job
// whose object already sits at its destination (a retry after a crash between the move and the mark) is
// simply marked done, and so is a removal of an object that is already gone.
import type { SupabaseClient } from '@supabase/supabase-js';

export const TRASH_BATCH = 100;

export interface TrashRun {
  processed: number;
  jobs: Array<{ id: number; done: boolean; error?: string }>;
}

export async function moveTrashedObjects(admin: SupabaseClient): Promise<TrashRun> {
  const { data: jobs, error } = await admin
    .from('trash_jobs')
    .select('id, action, bucket_id, object_path, trash_bucket_id, trash_path, attempts')
    .eq('pending', true)
    .order('deleted_on')
    .order('id')
    .limit(TRASH_BATCH);
  if (error) throw error;

  const results: TrashRun['jobs'] = [];
  for (const job of jobs) {
    if (job.action === 'remove') {
      const removed = await admin.storage.from(job.bucket_id).remove([job.object_path]);
      const saved = await admin
        .from('trash_jobs')
        .update(
          removed.error
            ? { attempts: job.attempts + 1, last_error: removed.error.message.slice(0, 2000) }
            : { pending: false, done_at: new Date().toISOString(), last_error: null, attempts: job.attempts + 1 },
        )
        .eq('id', job.id);
      if (saved.error) throw saved.error;
      results.push(
        removed.error ? { id: job.id, done: false, error: removed.error.message } : { id: job.id, done: true },
      );
      continue;
    }
    const moved = await admin.storage
      .from(job.bucket_id)
      .move(job.object_path, job.trash_path, { destinationBucket: job.trash_bucket_id });
    let done = !moved.error;
    if (moved.error) {
      const inTrash = await admin.storage.from(job.trash_bucket_id).exists(job.trash_path);
      const inMedia = await admin.storage.from(job.bucket_id).exists(job.object_path);
      done = !!inTrash.data || (!inMedia.data && !inTrash.data);
    }
    const lastError = moved.error?.message.slice(0, 2000) ?? 'unknown error';
    const update = done
      ? { pending: false, done_at: new Date().toISOString(), last_error: null, attempts: job.attempts + 1 }
      : { attempts: job.attempts + 1, last_error: lastError };
    const saved = await admin.from('trash_jobs').update(update).eq('id', job.id);
    if (saved.error) throw saved.error;
    results.push(done ? { id: job.id, done } : { id: job.id, done, error: lastError });
  }
  return { processed: results.length, jobs: results };
}
