-- The feed's job is sized by files, not pages. A step asked Postgres for up to 64 pages: ~9,400 files at 1M
-- published, several seconds of one query on a busy machine, past the API's statement timeout. A step now
-- takes the due pages, in order, while the files they are expected to hold stay within p_max_files (the job
-- asks for about 2,000), and at least one page, so every call makes progress whatever the library's size.
-- A page's expected files are what it held when last written, or the library's average for a page never
-- written. Each page's body is now built in a lateral subquery (see below); the entries are those of
-- file_rights_rules.sql.

drop function public.feed_dirty_pages(integer, text, text, text[]);

create function public.feed_dirty_pages(p_limit integer, p_max_files integer, p_functions_url text,
                                        p_site_url text, p_thumbnails text[])
returns table (page integer, changed_at timestamptz, file_count integer, body text, etag text)
language sql
stable
security definer
set search_path = ''
as $$
  with due as (
    select c.page, max(c.changed_at) as changed_at, p.first_id, p.last_id,
           -- What the page held when last written, or the library's average for a page never written (a
           -- rebuild's): the planner's row estimate of files, read from the catalogue, not counted.
           greatest(p.file_count,
                    (select greatest(r.reltuples, 0)::bigint / 4096 from pg_catalog.pg_class r
                      where r.oid = 'public.files'::pg_catalog.regclass)) as expected_files
      from private.feed_changes c join private.feed_pages p on p.page = c.page
     group by c.page, p.first_id, p.last_id, p.file_count
     order by c.page limit greatest(least(p_limit, 256), 1)
  ),
  -- Pages in order while the files they are expected to hold fit p_max_files; the first one always.
  pages as (
    select d.page, d.changed_at, d.first_id, d.last_id
      from (select due.*, sum(due.expected_files) over (order by due.page) - due.expected_files as files_before
              from due) d
     where d.files_before < greatest(p_max_files, 1)
  )
  -- Each page's body is built in a lateral subquery of its own: one range scan of files_pkey per page, whatever
  -- the planner estimates. As a join of pages and files (the earlier form), the planner could put files on the
  -- outer side: at 1M files it read all 600,000 published rows and their tags for a step of 9 pages (13 s).
  select pg.page, pg.changed_at, b.file_count, b.body, md5(b.body)
    from pages pg
    cross join lateral (
      select count(*)::integer as file_count,
             json_build_object(
               'version', 2,
               'page', lpad(to_hex(pg.page), 3, '0'),
               'files', coalesce(json_agg(e.entry order by e.id), '[]'::json)
             )::text as body
        from (
          select f.id,
                 json_build_object(
                   'id', f.id, 'nameEs', f.name_es, 'nameEn', f.name_en,
                   'descriptionEs', f.description_es, 'descriptionEn', f.description_en,
                   'extension', f.extension, 'size', f.size, 'uploadedOn', f.uploaded_on, 'b2b', f.b2b,
                   'creator', f.rights_creator, 'credit', f.rights_credit, 'copyright', f.rights_copyright,
                   'rightsExpireOn', f.rights_expire_on,
                   'sharingUrl', p_site_url || '/file/' || f.id,
                   'urls', json_build_object(
                     'original', p_functions_url || '/public-media/' || f.id,
                     'thumbnails', case when f.is_image then (
                       select json_object_agg(s.label, p_functions_url || '/public-media/' || f.id || '?size=' || s.label
                                              order by s.n)
                         from unnest(p_thumbnails) with ordinality as s(label, n)) end),
                   'tags', tags.b2c,
                   'b2bTags', case when f.b2b then tags.b2b else '[]'::json end,
                   'collections', coalesce((select json_agg(cf.collection_id order by cf.collection_id)
                                              from public.collection_files cf
                                              join public.collections c on c.id = cf.collection_id and c.is_public
                                             where cf.file_id = f.id), '[]'::json)
                 ) as entry
            from public.files f
            -- A file's tags once, split by the channel whose categories may show them.
            cross join lateral (
              select coalesce(json_agg(t.id order by t.id) filter (where not c.hide_b2c), '[]'::json) as b2c,
                     coalesce(json_agg(t.id order by t.id) filter (where not c.hide_b2b), '[]'::json) as b2b
                from public.file_tags ft
                join public.tags t on t.id = ft.tag_id
                join public.tag_categories c on c.id = t.category_id
               where ft.file_id = f.id
            ) tags
           where f.id between pg.first_id and pg.last_id and f.published and private.file_is_public(f)
        ) e
    ) b
   order by pg.page
$$;

revoke all on function public.feed_dirty_pages(integer, integer, text, text, text[]) from public, anon, authenticated;
grant execute on function public.feed_dirty_pages(integer, integer, text, text, text[]) to service_role;
