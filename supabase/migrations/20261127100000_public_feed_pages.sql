-- The public feed, kept current page by page. Published files are spread over 4,096 pages by the first three
-- hex digits of their id (ids are random, so pages stay even: ~250 files each at 1M published files), each
-- page a JSON object in the public `public-feed` bucket; `index.json` lists the pages with an ETag each and
-- `catalogue.json` holds the names of tags, categories and public collections that pages refer to by id.
-- A write marks the pages it touches dirty in the same transaction; the `update_feed` job rewrites only those
-- (a change to one published file rewrites one page and the index), a bounded number per run, so a full
-- rebuild (every page dirty) proceeds in steps that each fit an Edge Function's limits and resumes where the
-- last one stopped. Format and how a consumer syncs: README "Public feed", the JSON schemas in docs/feed/.

-- What each page holds now (written by the job alone).
create table private.feed_pages (
  page integer primary key check (page between 0 and 4095),
  -- The page's key range, so its files are one range scan of files_pkey.
  first_id uuid not null,
  last_id uuid not null,
  etag text check (etag ~ '^[0-9a-f]{32}$'),
  file_count integer not null default 0 check (file_count >= 0),
  written_at timestamptz
);

-- Pages to write again: writers only append here, so concurrent edits never wait on each other for it. A row
-- is removed once a write of its page read the library after it.
create table private.feed_changes (
  page integer not null check (page between 0 and 4095),
  changed_at timestamptz not null default clock_timestamp()
);
create index feed_changes_page_idx on private.feed_changes (page, changed_at);

-- What is not a page: the catalogue, and whether the index must be written again.
create table private.feed_state (
  singleton boolean primary key default true check (singleton),
  catalogue_dirty boolean not null default true,
  catalogue_etag text,
  index_dirty boolean not null default true,
  generated_at timestamptz,
  rights_checked_on date
);
comment on column private.feed_state.rights_checked_on is
  'The Madrid day the expire_rights job last marked the pages of files whose rights had expired.';
insert into private.feed_state default values;

alter table private.feed_pages enable row level security;
alter table private.feed_changes enable row level security;
alter table private.feed_state enable row level security;
revoke all on private.feed_pages, private.feed_changes, private.feed_state from public, anon, authenticated;

-- The page of a file: the first three hex digits of its id.
create function private.feed_page_of(p_id uuid)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select ('x' || substr(p_id::text, 1, 3))::bit(12)::integer
$$;

insert into private.feed_pages (page, first_id, last_id)
select g, (lpad(to_hex(g), 3, '0') || '00000-0000-0000-0000-000000000000')::uuid,
       (lpad(to_hex(g), 3, '0') || 'fffff-ffff-ffff-ffff-ffffffffffff')::uuid
  from generate_series(0, 4095) g;

-- Queues the feed's job at once; a job already pending picks the new pages up too.
create function private.queue_feed_update()
returns void
language sql
security definer
set search_path = ''
as $$
  select private.queue_server_job('update_feed', 'update_feed')
$$;
revoke all on function private.queue_feed_update() from public;

create function private.mark_feed_pages(p_pages integer[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if coalesce(cardinality(p_pages), 0) = 0 then
    return;
  end if;
  insert into private.feed_changes (page) select distinct unnest(p_pages);
  perform private.queue_feed_update();
end
$$;
revoke all on function private.mark_feed_pages(integer[]) from public;

create function private.mark_feed_catalogue()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.feed_state set catalogue_dirty = true where singleton and not catalogue_dirty;
  perform private.queue_feed_update();
end
$$;
revoke all on function private.mark_feed_catalogue() from public;

-- What marks pages ---------------------------------------------------------------------------------------------

-- A file's row in the feed changes when it is (or was) published and a column the feed shows changed.
create function private.mark_feed_after_file_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  pages integer[];
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct private.feed_page_of(n.id)) into pages from new_rows n where n.published;
  elsif tg_op = 'DELETE' then
    select array_agg(distinct private.feed_page_of(o.id)) into pages from old_rows o where o.published;
  else
    select array_agg(distinct private.feed_page_of(n.id)) into pages
      from new_rows n join old_rows o on o.id = n.id
     where (n.published or o.published)
       and (n.published, n.name_es, n.name_en, n.description_es, n.description_en, n.extension, n.size,
            n.uploaded_on, n.b2b, n.rights_creator, n.rights_credit, n.rights_copyright, n.rights_expire_on)
           is distinct from
           (o.published, o.name_es, o.name_en, o.description_es, o.description_en, o.extension, o.size,
            o.uploaded_on, o.b2b, o.rights_creator, o.rights_credit, o.rights_copyright, o.rights_expire_on);
  end if;
  perform private.mark_feed_pages(pages);
  return null;
end
$$;
revoke all on function private.mark_feed_after_file_changes() from public;

create trigger files_mark_feed_after_insert
  after insert on public.files referencing new table as new_rows
  for each statement execute function private.mark_feed_after_file_changes();
create trigger files_mark_feed_after_update
  after update on public.files referencing old table as old_rows new table as new_rows
  for each statement execute function private.mark_feed_after_file_changes();
create trigger files_mark_feed_after_delete
  after delete on public.files referencing old table as old_rows
  for each statement execute function private.mark_feed_after_file_changes();

-- A tag or collection link appears in its file's entry, which matters only while the file is published.
-- After a cascade from a deleted file the file is gone; its own delete trigger marked its page.
create function private.mark_feed_after_link_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  pages integer[];
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct private.feed_page_of(l.file_id)) into pages
      from new_rows l join public.files f on f.id = l.file_id where f.published;
  else
    select array_agg(distinct private.feed_page_of(l.file_id)) into pages
      from old_rows l join public.files f on f.id = l.file_id where f.published;
  end if;
  perform private.mark_feed_pages(pages);
  return null;
end
$$;
revoke all on function private.mark_feed_after_link_changes() from public;

create trigger file_tags_mark_feed_after_insert
  after insert on public.file_tags referencing new table as new_rows
  for each statement execute function private.mark_feed_after_link_changes();
create trigger file_tags_mark_feed_after_delete
  after delete on public.file_tags referencing old table as old_rows
  for each statement execute function private.mark_feed_after_link_changes();
create trigger collection_files_mark_feed_after_insert
  after insert on public.collection_files referencing new table as new_rows
  for each statement execute function private.mark_feed_after_link_changes();
create trigger collection_files_mark_feed_after_delete
  after delete on public.collection_files referencing old table as old_rows
  for each statement execute function private.mark_feed_after_link_changes();

-- Names live in the catalogue only, so renaming a tag used by half the library rewrites one small object.
-- Which tags a file lists depends on its tags' categories being visible, and which collections it lists on
-- their being public: those changes mark the pages of the files concerned.
create function private.mark_feed_after_catalogue_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  pages integer[];
begin
  perform private.mark_feed_catalogue();
  if tg_op <> 'UPDATE' then
    return null;
  end if;
  if tg_table_name = 'tags' then
    select array_agg(distinct private.feed_page_of(f.id)) into pages
      from new_rows n join old_rows o on o.id = n.id
      join public.file_tags ft on ft.tag_id = n.id
      join public.files f on f.id = ft.file_id and f.published
     where n.category_id is distinct from o.category_id;
  elsif tg_table_name = 'tag_categories' then
    select array_agg(distinct private.feed_page_of(f.id)) into pages
      from new_rows n join old_rows o on o.id = n.id
      join public.tags t on t.category_id = n.id
      join public.file_tags ft on ft.tag_id = t.id
      join public.files f on f.id = ft.file_id and f.published
     where (n.hide_b2c, n.hide_b2b) is distinct from (o.hide_b2c, o.hide_b2b);
  elsif tg_table_name = 'collections' then
    select array_agg(distinct private.feed_page_of(f.id)) into pages
      from new_rows n join old_rows o on o.id = n.id
      join public.collection_files cf on cf.collection_id = n.id
      join public.files f on f.id = cf.file_id and f.published
     where n.is_public is distinct from o.is_public;
  end if;
  perform private.mark_feed_pages(pages);
  return null;
end
$$;
revoke all on function private.mark_feed_after_catalogue_changes() from public;

-- Triggers with transition tables may name one event each.
create trigger tags_mark_feed_after_update
  after update on public.tags referencing old table as old_rows new table as new_rows
  for each statement execute function private.mark_feed_after_catalogue_changes();
create trigger tags_mark_feed_after_insert_or_delete
  after insert or delete on public.tags
  for each statement execute function private.mark_feed_after_catalogue_changes();
create trigger tag_categories_mark_feed_after_update
  after update on public.tag_categories referencing old table as old_rows new table as new_rows
  for each statement execute function private.mark_feed_after_catalogue_changes();
create trigger tag_categories_mark_feed_after_insert_or_delete
  after insert or delete on public.tag_categories
  for each statement execute function private.mark_feed_after_catalogue_changes();
create trigger collections_mark_feed_after_update
  after update on public.collections referencing old table as old_rows new table as new_rows
  for each statement execute function private.mark_feed_after_catalogue_changes();
create trigger collections_mark_feed_after_insert_or_delete
  after insert or delete on public.collections
  for each statement execute function private.mark_feed_after_catalogue_changes();

-- What the job reads and records (service role only) --------------------------------------------------------

-- The pages due, in order, each as the JSON the bucket will hold, with its MD5 (the ETag the index lists) and
-- the change it reflects. A step is sized by files, not pages: it takes pages while the files they are
-- expected to hold stay within p_max_files (the job asks for about 2,000), and at least one page, so every call
-- makes progress whatever the library's size (64 pages were ~9,400 files at 1M published, past the API's
-- statement timeout on a busy machine). A page's expected files are what it held when last written, or the
-- library's average for a page never written. The thumbnail sizes come from the caller (the functions'
-- media-variants table), as labels like '400x300'. Entries carry the credits and the last day of use; a file
-- whose rights expired (private.file_is_public) leaves its page.
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

-- Records pages written (or, with no files, removed); a change newer than what was read keeps its page due.
create function public.feed_pages_written(p_pages integer[], p_changed_at timestamptz[], p_etags text[],
                                          p_file_counts integer[])
returns void
language sql
security definer
set search_path = ''
as $$
  update private.feed_pages p
     set etag = w.etag, file_count = w.file_count, written_at = now()
    from unnest(p_pages, p_etags, p_file_counts) as w(page, etag, file_count)
   where p.page = w.page;
  delete from private.feed_changes c
   using unnest(p_pages, p_changed_at) as w(page, changed_at)
   where c.page = w.page and c.changed_at <= w.changed_at;
  update private.feed_state set index_dirty = true where singleton;
$$;

-- The catalogue: visible categories, their tags, the public collections.
create function public.feed_catalogue()
returns table (body text, etag text)
language sql
stable
security definer
set search_path = ''
as $$
  with body as (
    select json_build_object(
      'version', 2,
      'categories', coalesce((
        select json_agg(json_build_object('id', c.id, 'nameEs', c.name_es, 'nameEn', c.name_en,
                                          'b2c', not c.hide_b2c, 'b2b', not c.hide_b2b) order by c.id)
          from public.tag_categories c where not (c.hide_b2c and c.hide_b2b)), '[]'::json),
      'tags', coalesce((
        select json_agg(json_build_object('id', t.id, 'nameEs', t.name_es, 'nameEn', t.name_en,
                                          'categoryId', t.category_id) order by t.id)
          from public.tags t join public.tag_categories c on c.id = t.category_id
         where not (c.hide_b2c and c.hide_b2b)), '[]'::json),
      'collections', coalesce((
        select json_agg(json_build_object('id', c.id, 'name', c.name) order by c.id)
          from public.collections c where c.is_public), '[]'::json)
    )::text as text
  )
  select b.text, md5(b.text) from body b
$$;

create function public.feed_catalogue_written(p_etag text)
returns void
language sql
security definer
set search_path = ''
as $$
  update private.feed_state set catalogue_dirty = false, catalogue_etag = p_etag, index_dirty = true
   where singleton;
$$;

-- What is left to do: dirty pages, the catalogue, the index.
create function public.feed_pending()
returns table (dirty_pages integer, catalogue_dirty boolean, index_dirty boolean, index_written_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select (select count(distinct c.page)::integer from private.feed_changes c), s.catalogue_dirty, s.index_dirty,
         s.generated_at
    from private.feed_state s
$$;

-- The index: every page that holds files, with its ETag; written last, after the pages it lists.
create function public.feed_index()
returns table (body text)
language sql
stable
security definer
set search_path = ''
as $$
  select json_build_object(
    'version', 2,
    'generatedAt', now(),
    'files', (select coalesce(sum(p.file_count), 0) from private.feed_pages p),
    'catalogue', json_build_object('url', 'catalogue.json', 'etag', s.catalogue_etag),
    'pages', coalesce((
      select json_agg(json_build_object('id', lpad(to_hex(p.page), 3, '0'),
                                        'url', 'pages/' || lpad(to_hex(p.page), 3, '0') || '.json',
                                        'etag', p.etag, 'files', p.file_count, 'updatedAt', p.written_at)
                      order by p.page)
        from private.feed_pages p where p.file_count > 0), '[]'::json)
  )::text
    from private.feed_state s
$$;

-- Only the feed's job writes pages (one run at a time), so nothing can have changed since it read the index.
create function public.feed_index_written()
returns void
language sql
security definer
set search_path = ''
as $$
  update private.feed_state set index_dirty = false, generated_at = now() where singleton;
$$;

-- A full rebuild (staff's 'public-feed' function, or after restoring a backup): every page that holds or
-- held files is written again, in the job's bounded steps.
create function public.rebuild_public_feed()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  marked integer;
begin
  insert into private.feed_changes (page)
  select p.page from private.feed_pages p
   where p.file_count > 0
      or exists (select 1 from public.files f where f.published and f.id between p.first_id and p.last_id);
  get diagnostics marked = row_count;
  update private.feed_state set catalogue_dirty = true, index_dirty = true where singleton;
  perform private.queue_feed_update();
  return marked;
end
$$;

revoke all on function public.feed_dirty_pages(integer, integer, text, text, text[]),
  public.feed_pages_written(integer[], timestamptz[], text[], integer[]), public.feed_catalogue(),
  public.feed_catalogue_written(text), public.feed_pending(), public.feed_index(), public.feed_index_written(), public.rebuild_public_feed()
  from public, anon, authenticated;
grant execute on function public.feed_dirty_pages(integer, integer, text, text, text[]),
  public.feed_pages_written(integer[], timestamptz[], text[], integer[]), public.feed_catalogue(),
  public.feed_catalogue_written(text), public.feed_pending(), public.feed_index(), public.feed_index_written(), public.rebuild_public_feed()
  to service_role;

-- The library as it is when this runs (the seed comes later and marks its own pages).
select public.rebuild_public_feed();

-- The daily feed regeneration -------------------------------------------------------------------------------
-- Rights expire by the calendar, with no write to mark a page. The `expire_rights` server job runs just after
-- each Madrid midnight (queued ahead with run_after, as purge_trash is: the stack's job worker and, on hosted,
-- pg_cron's call of run-jobs pick it up when due), marks the pages of the published files whose rights expired
-- since its last run, and queues itself for the next midnight. A daily pg_cron schedule on hosted queues it
-- again should the chain ever break (queueing is idempotent per key).

-- How long until the next Madrid midnight.
create function private.until_next_rights_day()
returns interval
language sql
stable
set search_path = ''
as $$
  select ((private.rights_today() + 1)::timestamp at time zone 'Europe/Madrid') - pg_catalog.now()
$$;
revoke all on function private.until_next_rights_day() from public;

-- The job's work (run-jobs, service role): the pages of published files whose last day fell between the last
-- run and yesterday, so each expiry marks its page once; returns how many files left the feed.
create function public.mark_expired_rights_in_feed()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  today date := private.rights_today();
  checked_on date;
  pages integer[];
  expired integer;
begin
  select s.rights_checked_on into checked_on from private.feed_state s where s.singleton for update;
  select array_agg(distinct private.feed_page_of(f.id)), count(*)::integer into pages, expired
    from public.files f
   where f.published and f.rights_expire_on < today
     and (checked_on is null or f.rights_expire_on >= checked_on);
  perform private.mark_feed_pages(pages);
  update private.feed_state set rights_checked_on = today where singleton;
  perform private.queue_server_job('expire_rights', 'expire_rights', null, private.until_next_rights_day());
  return expired;
end
$$;
revoke all on function public.mark_expired_rights_in_feed() from public, anon, authenticated;
grant execute on function public.mark_expired_rights_in_feed() to service_role;

-- The first run: the pages of files whose rights have already expired, and the next midnight's run queued.
select public.mark_expired_rights_in_feed();

do $$
begin
  if to_regnamespace('cron') is null then
    raise notice 'pg_cron is not available: the expire_rights job re-queues itself (the local stack runs it)';
    return;
  end if;
  begin
    -- 22:05 and 23:05 UTC: a few minutes after Madrid's midnight in summer and in winter.
    perform cron.schedule('mediateca-rights-expiry', '5 22,23 * * *',
                          $job$select private.queue_server_job('expire_rights', 'expire_rights')$job$);
  exception
    when others then
      raise warning 'the daily rights expiry is not scheduled: %', sqlerrm;
  end;
end
$$;
