-- An uploader reads the tags, collection links and embedded metadata of their own files: the policies now say
-- "their own" as a correlated EXISTS on public.files instead of calling private.owns_file() for every row.
--
-- Same rows for everyone: the admin branch is unchanged, and an uploader may read exactly their own rows of
-- public.files (its policy), so the EXISTS below finds the same files owns_file() (security definer) found.
-- Cheaper: a PL/pgSQL call per row runs a query of its own through SPI, while the EXISTS is planned with the
-- statement, as one index probe per row or one pass over the uploader's files, whichever is cheaper. Checking
-- 140 tag links (a bulk tag of 20 files) as an uploader went from 1.3–3.6 ms to 0.5–0.8 ms; Realtime runs that
-- check for every uploader subscribed, and every listing that embeds a file's tags runs it too.
-- The write policies keep owns_file(): they check one row at a time.
alter policy "Admins read every file tag and uploaders those of their files" on public.file_tags
  using (
    (select private.is_admin())
    or ((select private.is_uploader())
        and exists (select 1 from public.files f where f.id = file_tags.file_id and f.uploader_id = (select auth.uid())))
  );

alter policy "Admins read every collection link and uploaders those of their files" on public.collection_files
  using (
    (select private.is_admin())
    or ((select private.is_uploader())
        and exists (select 1 from public.files f where f.id = collection_files.file_id and f.uploader_id = (select auth.uid())))
  );

alter policy "Admins read every file's metadata and uploaders their own" on public.file_metadata
  using (
    (select private.is_admin())
    or ((select private.is_uploader())
        and exists (select 1 from public.files f where f.id = file_metadata.file_id and f.uploader_id = (select auth.uid())))
  );
