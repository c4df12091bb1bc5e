-- Rights, credits and what the file itself says about the picture.
--
-- Two kinds of facts, kept apart because different people own them:
--   * the rights a person records on the file (author, credit line, copyright, licence, usage terms, the day
--     the rights expire, model/property release): columns on public.files, edited in the detail form under
--     the same rules as the titles, but for the day the rights expire (below);
--   * what post-processing read from the file's embedded EXIF/IPTC/XMP: public.file_metadata, one row per
--     processed image, written by the server only. The staff see it beside the rights and the form prefills
--     empty rights from it; nothing here is ever shown on a public surface (it holds the GPS position).
-- The capture date sits on public.files because the grid sorts and groups by it.

create type public.file_license as enum ('own', 'author_ceded', 'stock', 'agency', 'unknown');
comment on type public.file_license is
  'How the group holds a picture''s rights: own (Propia), author_ceded (Cedida por el autor), stock (Banco de imágenes), agency (Agencia), unknown (Desconocida).';

create type public.file_release as enum ('yes', 'no', 'not_applicable');
comment on type public.file_release is 'Whether a model or property release was signed: Sí, No, No aplica.';

alter table public.files
  -- When the picture was taken, from its EXIF (with the offset it states) or XMP; set by post-processing
  -- only. Null when the file does not say or says something impossible.
  add column captured_at timestamptz,
  add column rights_creator text not null default ''
    check (char_length(rights_creator) <= 300 and rights_creator !~ '[[:cntrl:]]'),
  add column rights_credit text not null default ''
    check (char_length(rights_credit) <= 300 and rights_credit !~ '[[:cntrl:]]'),
  add column rights_copyright text not null default ''
    check (char_length(rights_copyright) <= 500 and rights_copyright !~ '[[:cntrl:]]'),
  -- Null: nobody has said yet (the form prefills it from nothing; 'unknown' is a person's answer).
  add column rights_license public.file_license,
  add column rights_usage_terms text not null default '' check (char_length(rights_usage_terms) <= 2000),
  -- The last day the picture may be used; from the next day on it is off every public surface.
  add column rights_expire_on date,
  add column rights_release public.file_release;

comment on column public.files.captured_at is 'Capture date and time read from the file (EXIF DateTimeOriginal with its offset, else XMP photoshop:DateCreated); server-owned.';
comment on column public.files.rights_expire_on is 'Last day the rights allow using the file; from the day after, it is not published anywhere public.';

create table public.file_metadata (
  file_id uuid primary key references public.files (id) on delete cascade,
  camera_make text check (char_length(camera_make) <= 200),
  camera_model text check (char_length(camera_model) <= 200),
  lens text check (char_length(lens) <= 200),
  -- EXIF orientation 1…8 (1 = upright).
  orientation smallint check (orientation between 1 and 8),
  gps_latitude double precision check (gps_latitude between -90 and 90),
  gps_longitude double precision check (gps_longitude between -180 and 180),
  creator text check (char_length(creator) <= 300),
  credit text check (char_length(credit) <= 300),
  copyright text check (char_length(copyright) <= 500),
  usage_terms text check (char_length(usage_terms) <= 2000),
  headline text check (char_length(headline) <= 500),
  caption text check (char_length(caption) <= 10000),
  keywords text[] not null default '{}' check (cardinality(keywords) <= 200),
  -- Why the embedded metadata could not be read (the file was processed all the same); null when it was.
  read_error text check (char_length(read_error) <= 500),
  read_at timestamptz not null default now(),
  constraint file_metadata_gps_pair check ((gps_latitude is null) = (gps_longitude is null))
);
comment on table public.file_metadata is
  'What post-processing read from an image''s embedded EXIF/IPTC/XMP, sanitised; written by the server only. Staff-only (holds GPS).';

alter table public.file_metadata enable row level security;

create policy "Admins read every file's metadata and uploaders their own" on public.file_metadata
  for select to authenticated
  using (
    (select private.is_admin())
    or ((select private.is_uploader())
        and exists (select 1 from public.files f where f.id = file_metadata.file_id and f.uploader_id = (select auth.uid())))
  );

revoke all on public.file_metadata from anon, authenticated;
grant select on public.file_metadata to authenticated;
grant all on public.file_metadata to service_role;

-- The rules of a file's rights, enforced here rather than by the screens:
--   * who may change the day the rights expire: it decides public exposure, so a non-admin may set it or bring
--     it earlier on their own file (that only ever hides the file sooner), and only an admin may clear it or
--     move it later; the other rights columns are texts and follow the titles' rule (uploaders, their own
--     files; files.sql);
--   * "expired" means rights_expire_on < today, today being the date in Europe/Madrid (the group's time
--     zone): a file whose last day is today may still be used today;
--   * a file with expired rights cannot be published, whoever asks (a single 'Activo', the bulk action, SQL);
--   * a published file whose rights expired is off every public surface from that day on, decided at read
--     time by private.file_is_public (the public file and collection, share links, public-media, the public
--     ZIP), with no job in between; the public feed, a file written ahead of time, is regenerated by the daily
--     `expire_rights` job (public_feed_pages.sql).
-- Elsewhere, each with its concern: the filter 'Derechos', the capture-date sorts and the search on author and
-- credit (file_search.sql), the detail form's save of the rights (update_file, bulk_file_actions.sql), the
-- credits on public pages (public_sharing.sql) and in the feed, and analytics.rights_coverage (analytics.sql).

-- Today and expiry ---------------------------------------------------------------------------------------------

-- The group's calendar day now: rights expire at the end of their last day in Madrid, whatever the server's
-- time zone.
create function private.rights_today()
returns date
language sql
stable
set search_path = ''
as $$
  select (pg_catalog.now() at time zone 'Europe/Madrid')::date
$$;

-- Whether rights whose last day is p_expire_on have expired today (no date: they never do).
create function private.rights_expired(p_expire_on date)
returns boolean
language sql
stable
set search_path = ''
as $$
  select p_expire_on is not null and p_expire_on < private.rights_today()
$$;

-- THE rule for what a public surface may show: a published file whose rights have not expired. Everything
-- public reads it (public file and collection, public-media, the public ZIP, the feed) at read time.
-- Written out rather than through rights_expired: a SQL function with its own search_path is not inlined, and
-- one called from another is set up again on every call — per row, that made a feed call at 1M files (9,400
-- files) run past the statement timeout. Same boundary as rights_expired: file-rights.test.ts checks the last
-- day is still public and publishable and the day after is neither.
create function private.file_is_public(p_file public.files)
returns boolean
language sql
stable
set search_path = ''
as $$
  select p_file.published
     and (p_file.rights_expire_on is null
          or p_file.rights_expire_on >= (pg_catalog.now() at time zone 'Europe/Madrid')::date)
$$;

revoke all on function private.rights_today(), private.rights_expired(date), private.file_is_public(public.files)
  from public;
grant execute on function private.rights_today(), private.rights_expired(date), private.file_is_public(public.files)
  to anon, authenticated, service_role;

-- For the count of files expiring soon, the 'Derechos' filter and the daily job: files with a date, by date.
create index files_rights_expire_on_idx on public.files (rights_expire_on, id) where rights_expire_on is not null;

-- Who may change the expiry date ----------------------------------------------------------------------------
-- Only an update that clears the date or moves it later reaches this (the trigger's WHEN); a non-admin is
-- refused with a Spanish message the app shows as it is. Writes without a user (service role, SQL) are trusted.
create function private.refuse_extending_rights_by_non_admin()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if auth.role() = 'authenticated' and not private.is_admin() then
    raise exception 'No puedes quitar ni retrasar la fecha en que caducan los derechos: solo un administrador puede hacerlo.'
      using errcode = 'P0001', hint = 'RIGHTS_EXPIRY_ADMIN_ONLY';
  end if;
  return new;
end
$$;
revoke all on function private.refuse_extending_rights_by_non_admin() from public;

create trigger files_guard_rights_expiry
  before update of rights_expire_on on public.files
  for each row
  when (old.rights_expire_on is not null
        and (new.rights_expire_on is null or new.rights_expire_on > old.rights_expire_on))
  execute function private.refuse_extending_rights_by_non_admin();

-- No publishing with expired rights -----------------------------------------------------------------------
-- Judged when a file becomes published (insert or published false → true), whoever asks; publish_files runs
-- one UPDATE, so one expired file refuses the whole bulk action. A published file whose date passes (or is
-- set in the past) stays published in the table and is simply not public any more (file_is_public).
create function private.refuse_publishing_expired_rights()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.published and (tg_op = 'INSERT' or not old.published) and private.rights_expired(new.rights_expire_on) then
    raise exception 'No se pueden publicar archivos con los derechos caducados'
      using errcode = 'P0001', hint = 'RIGHTS_EXPIRED';
  end if;
  return new;
end
$$;
revoke all on function private.refuse_publishing_expired_rights() from public;

create trigger files_validate_rights_publishable
  before insert or update of published on public.files
  for each row execute function private.refuse_publishing_expired_rights();

-- An admin's count on the files screen -------------------------------------------------------------------------
-- Published files whose rights expire within 30 days: their last day is today or one of the next 29 days
-- (expired ones are not counted: they are off the public surfaces already).
create function public.count_rights_expiring_soon()
returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  today date := private.rights_today();
begin
  if not (auth.role() = 'service_role' or private.is_admin()) then
    raise exception 'Only admins may do this' using errcode = '42501', hint = 'NOT_ADMIN';
  end if;
  return (select count(*)::integer from public.files f
           where f.published and f.rights_expire_on >= today and f.rights_expire_on < today + 30);
end
$$;
revoke all on function public.count_rights_expiring_soon() from public, anon;
grant execute on function public.count_rights_expiring_soon() to authenticated, service_role;
