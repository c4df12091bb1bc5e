-- Replacing a file ('Subir nuevo archivo') points the record at a new object; the previous one was left
-- in the media bucket for good. It now gets a trash job in the same transaction as the update, like a
-- deleted file's object, so the trash worker moves it to the (restorable) trash bucket.

create function private.queue_trash_job_for_replaced_object()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.trash_jobs (file_id, object_path, trash_path, deleted_by)
  values (old.id, old.object_path, old.object_path, auth.uid());
  return null;
end
$$;
revoke all on function private.queue_trash_job_for_replaced_object() from public;

create trigger files_queue_trash_job_for_replaced_object
  after update of object_path on public.files
  for each row
  when (old.object_path is distinct from new.object_path)
  execute function private.queue_trash_job_for_replaced_object();
