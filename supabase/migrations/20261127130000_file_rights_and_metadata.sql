-- Rights, credits and what the file itself says about the picture.
--
-- Two kinds of facts, kept apart because different people own them:
--   * the rights a person records on the file (author, credit line, copyright, licence, usage terms, the day
--     the rights expire, model/property release): columns on public.files, edited in the detail form under
--     the same rules as the titles (later migrations decide which of them only admins may change);
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
  using ((select private.is_admin()) or ((select private.is_uploader()) and private.owns_file(file_id)));

revoke all on public.file_metadata from anon, authenticated;
grant select on public.file_metadata to authenticated;
grant all on public.file_metadata to service_role;
