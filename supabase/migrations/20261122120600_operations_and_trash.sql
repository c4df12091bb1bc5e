-- The operations popup (one row, admin-only) and the trash jobs that deleting a file queues.

create table public.operations_popup (
  id smallint primary key default 1 check (id = 1),
  title text not null default '' check (char_length(title) <= 300),
  -- Line breaks are stored as <br>, as the spec's original product did.
  message text not null default '' check (char_length(message) <= 10000),
  active boolean not null default false,
  updated_at timestamptz not null default now()
);
insert into public.operations_popup (id) values (1) on conflict do nothing;

alter table public.operations_popup enable row level security;
create policy "Admins read the operations popup" on public.operations_popup
  for select to authenticated using ((select private.is_admin()));
create policy "Admins update the operations popup" on public.operations_popup
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));

revoke all on public.operations_popup from anon;
grant select, update on public.operations_popup to authenticated;
grant all on public.operations_popup to service_role;

create trigger operations_popup_touch_updated_at
  before update on public.operations_popup
  for each row execute function private.touch_updated_at();

-- A deleted file's object is moved to the trash bucket by the trash edge function (service role), so a
-- deletion can be undone by an operator; the job is queued in the same transaction as the delete.
create table public.trash_jobs (
  id bigint generated always as identity primary key,
  file_id uuid not null,
  bucket_id text not null default 'media',
  object_path text not null,
  trash_bucket_id text not null default 'trash',
  trash_path text not null,
  deleted_on timestamptz not null default now(),
  deleted_by uuid,
  pending boolean not null default true,
  attempts integer not null default 0,
  last_error text check (char_length(last_error) <= 2000),
  done_at timestamptz
);
create index trash_jobs_pending_idx on public.trash_jobs (deleted_on) where pending;

alter table public.trash_jobs enable row level security;
create policy "Admins read trash jobs" on public.trash_jobs
  for select to authenticated using ((select private.is_admin()));

revoke all on public.trash_jobs from anon, authenticated;
grant select on public.trash_jobs to authenticated;
grant all on public.trash_jobs to service_role;

create function private.queue_trash_jobs_for_deleted_files()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.trash_jobs (file_id, object_path, trash_path, deleted_by)
  select d.id, d.object_path, d.object_path, auth.uid() from deleted_files d;
  return null;
end
$$;
revoke all on function private.queue_trash_jobs_for_deleted_files() from public;

create trigger files_queue_trash_jobs
  after delete on public.files
  referencing old table as deleted_files
  for each statement execute function private.queue_trash_jobs_for_deleted_files();
