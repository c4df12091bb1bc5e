-- An upload whose processing cannot succeed ends in a clear state instead of 'Procesando' for good: the file
-- is no longer `processing` and keeps the reason in `processing_error` (a Spanish sentence written by the
-- processing step). Such a file — "No se pudo procesar" — may be deleted like any other, is never published
-- until its object is replaced ('Subir nuevo archivo' clears the error and processes it again), and has its
-- own filter in the files screen.
--
-- Permanent failures (an unreadable image, a type the bytes do not match, an empty file) are not retried:
-- the job runner ends their job at once with fail_server_job. Transient ones (the network, Storage answering
-- 5xx) go through finish_server_job's backoff, and only when their attempts are used up does the
-- file reach the same state.

alter table public.server_jobs
  add column failed_permanently boolean not null default false;

comment on column public.server_jobs.failed_permanently is
  'Ended by fail_server_job: a second run would fail the same way, so the app offers no ''Reintentar''.';

-- Ends a claimed job for good, without the backoff: the runner calls it when the work can never succeed.
create function public.fail_server_job(p_id bigint, p_error text)
returns public.server_jobs
language plpgsql
security definer
set search_path = ''
as $$
declare
  job public.server_jobs;
begin
  update public.server_jobs
     set state = 'failed', locked_until = null, finished_at = now(), failed_permanently = true,
         last_error = left(coalesce(nullif(p_error, ''), 'permanent failure'), 2000)
   where id = p_id and state = 'running'
  returning * into job;
  return job;
end
$$;
revoke all on function public.fail_server_job(bigint, text) from public, anon, authenticated;
grant execute on function public.fail_server_job(bigint, text) to service_role;

-- 'Reintentar' (retry_server_job) gives a job a fresh start: it is no longer a permanent failure.
create function private.clear_permanent_failure_on_retry()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.state = 'failed' and new.state = 'pending' then
    new.failed_permanently := false;
  end if;
  return new;
end
$$;
revoke all on function private.clear_permanent_failure_on_retry() from public;

create trigger server_jobs_clear_permanent_failure_on_retry
  before update of state on public.server_jobs
  for each row execute function private.clear_permanent_failure_on_retry();

-- The file follows its processing job: failed for good → 'No se pudo procesar' (and unpublished, so the
-- public feed never offers an object that could not be read); given another try → processing again.
-- A file whose object was replaced meanwhile has a newer job of its own and is left to it.
create function private.sync_file_with_processing_job()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.state = 'failed' and old.state <> 'failed' then
    -- A permanent failure keeps the reason the processing step wrote; tries that ran out say so instead of
    -- the "se volverá a intentar" they left behind.
    update public.files f
       set processing = false, published = false,
           processing_error = case
             when new.failed_permanently
               then coalesce(f.processing_error, 'No se pudo procesar el archivo. Vuelve a subirlo.')
             else 'No se pudo procesar el archivo tras varios intentos. Vuelve a subirlo o pide a un administrador que lo reintente.'
           end
     where f.id = new.file_id and f.processing
       and not exists (select 1 from public.server_jobs j
                        where j.file_id = new.file_id and j.kind = 'process_upload' and j.id <> new.id
                          and j.state in ('pending', 'running'));
  elsif old.state = 'failed' and new.state = 'pending' then
    update public.files f
       set processing = true, processing_error = null
     where f.id = new.file_id and not f.processing and f.processing_error is not null;
  end if;
  return null;
end
$$;
revoke all on function private.sync_file_with_processing_job() from public;

create trigger server_jobs_sync_file_with_processing_job
  after update of state on public.server_jobs
  for each row
  when (new.kind = 'process_upload' and new.file_id is not null and old.state is distinct from new.state)
  execute function private.sync_file_with_processing_job();

-- Not publishable until replaced, whoever asks (a single 'Activo', the bulk action, SQL): the same refusal,
-- with a hint the app and scripts can match. Fires after files_before_write (server-owned columns), so a replacement
-- (which clears the error) in the same statement is judged on its new state.
create function private.refuse_publishing_unprocessed_file()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.published and not new.processing and new.processing_error is not null then
    raise exception 'No se puede publicar «%» porque no se pudo procesar. Sustituye el archivo para poder publicarlo.',
      new.name_es using errcode = 'P0001', hint = 'FILE_PROCESSING_FAILED';
  end if;
  return new;
end
$$;
revoke all on function private.refuse_publishing_unprocessed_file() from public;

create trigger files_validate_publishable
  before insert or update of published, processing, processing_error on public.files
  for each row execute function private.refuse_publishing_unprocessed_file();

create index files_processing_failed_idx on public.files (uploaded_on desc, id)
  where not processing and processing_error is not null;
