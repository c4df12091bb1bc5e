-- Analysts query Postgres directly (psql, Metabase, Grafana): the `analyst` role and its reporting views,
-- documented with example queries in supabase/README.md.
--
-- The role. Analysts get a group role of their own instead of `postgres` (which can change everything and
-- read auth secrets) or the API roles (bound by RLS to one staff member's view). `analyst` cannot log in and
-- has no password: each analyst is a LOGIN member made outside migrations (the local stack makes
-- `analyst_local`; supabase/README.md shows how on hosted). Read-only by construction: it is granted SELECT
-- on the `analytics` views only and nothing else anywhere, so a write fails on privileges even after
-- `set default_transaction_read_only = off`. The settings below are the defaults every member gets (role
-- settings are not inherited, so the member's own `alter role … set` copies them): read-only transactions
-- guard against a stray write through some function PUBLIC may execute, and the timeouts stop a runaway
-- query or an idle open transaction from holding resources the app needs.

do $$
begin
  if not exists (select from pg_catalog.pg_roles where rolname = 'analyst') then
    create role analyst nologin noinherit nocreatedb nocreaterole noreplication nobypassrls;
  end if;
end
$$;

comment on role analyst is 'Read-only analysts: SELECT on the analytics schema only. Members log in; this role does not.';

alter role analyst set default_transaction_read_only = on;
alter role analyst set statement_timeout = '10s';
alter role analyst set idle_in_transaction_session_timeout = '5min';
-- Reports group 100k files and 450k tag links; at the default 4MB those aggregates spill to disk.
alter role analyst set work_mem = '32MB';

-- The views. They run with their owner's rights (not security_invoker), which bypasses RLS on purpose: the
-- policies describe what one staff member may see through the app, while an analyst needs the whole
-- library. That is safe because the views are the only thing `analyst` may read, they are aggregates or
-- catalogue fields (titles, tags, sizes), and they leave out what RLS or column grants keep private: no auth
-- data, no storage paths, no academy members' names or e-mails, no job payloads. The schema is not exposed
-- through the API (config.toml [api] schemas) and anon/authenticated get no usage on it.
--
-- Speed at 100k files: every view is one pass over its tables (aggregates hashed in a single scan, no
-- per-row subqueries), measured by bench/analytics.ts as analyst_local; the role's work_mem keeps those
-- hashes in memory. Plain views stay exact to the second; if the library grows far past 100k files, the
-- heavy ones (tag coverage, tag usage) can become materialized views refreshed by the job queue without
-- changing their columns.
create schema analytics;
comment on schema analytics is 'Read-only reporting views for the analyst role. See supabase/README.md.';
revoke all on schema analytics from public;

-- Files by month, type and uploader, with sizes.
create view analytics.files_by_month as
select
  date_trunc('month', f.uploaded_on at time zone 'UTC')::date as month,
  f.extension as file_type,
  f.is_image,
  f.uploader_id,
  coalesce(f.uploader_email, '') as uploader_email,
  count(*)::bigint as files,
  count(*) filter (where f.published)::bigint as published_files,
  sum(f.size)::bigint as total_bytes,
  round(avg(f.size))::bigint as average_bytes,
  max(f.size)::bigint as largest_bytes
from public.files f
group by 1, 2, 3, 4, 5;
comment on view analytics.files_by_month is 'Files uploaded per calendar month (UTC), file type (extension) and uploader, with counts and sizes in bytes.';

-- Publication state: how much of the library is published, still processing or failed processing.
create view analytics.publication_state as
select
  case
    when f.processing_error is not null then 'processing_failed'
    when f.processing then 'processing'
    when f.published then 'published'
    else 'unpublished'
  end as state,
  count(*)::bigint as files,
  sum(f.size)::bigint as total_bytes,
  count(*) filter (where f.b2b)::bigint as b2b_files,
  count(*) filter (where f.panorama)::bigint as panorama_files,
  count(*) filter (where f.operations)::bigint as operations_files,
  min(f.uploaded_on) as oldest_uploaded_on,
  max(f.uploaded_on) as newest_uploaded_on
from public.files f
group by 1;
comment on view analytics.publication_state is 'Files per state (published, unpublished, processing, processing_failed) with sizes and the B2B/panorama/operations flags.';

-- Tag usage per category: files per tag (tags without files included).
create view analytics.tag_usage as
with per_tag as (
  select ft.tag_id, count(*)::bigint as files, count(*) filter (where f.published)::bigint as published_files
  from public.file_tags ft
  join public.files f on f.id = ft.file_id
  group by ft.tag_id
)
select
  c.id as category_id,
  c.name_es as category_name_es,
  c.name_en as category_name_en,
  t.id as tag_id,
  t.name_es as tag_name_es,
  t.name_en as tag_name_en,
  coalesce(p.files, 0) as files,
  coalesce(p.published_files, 0) as published_files
from public.tags t
join public.tag_categories c on c.id = t.category_id
left join per_tag p on p.tag_id = t.id;
comment on view analytics.tag_usage is 'Every tag with its category and how many files (and published files) carry it; unused tags show 0.';

-- Per category: how many files carry at least one of its tags, and how many carry none.
-- Materialized: telling files apart per category means grouping every tag link (0.3 s at 100k files, 3 s at
-- 1M), too slow to run on each read. The refresh_analytics server job (server_jobs.sql) refreshes it a minute
-- after tags or links change, in the background and without blocking readers (the unique index makes the
-- refresh concurrent); analytics.refreshed says when it last did.
create materialized view analytics.tag_category_coverage as
with totals as (select count(*)::bigint as files from public.files),
-- Distinct (file, category) pairs by grouping, which hashes; count(distinct) per category would sort them all.
file_categories as (
  select ft.file_id, t.category_id
  from public.file_tags ft
  join public.tags t on t.id = ft.tag_id
  group by ft.file_id, t.category_id
),
per_category as (
  select fc.category_id, count(*)::bigint as tagged_files from file_categories fc group by fc.category_id
),
tag_counts as (select t.category_id, count(*)::bigint as tags from public.tags t group by t.category_id)
select
  c.id as category_id,
  c.name_es as category_name_es,
  c.name_en as category_name_en,
  coalesce(tc.tags, 0) as tags,
  coalesce(p.tagged_files, 0) as tagged_files,
  totals.files - coalesce(p.tagged_files, 0) as files_without_a_tag_of_this_category
from public.tag_categories c
cross join totals
left join per_category p on p.category_id = c.id
left join tag_counts tc on tc.category_id = c.id;
create unique index tag_category_coverage_category_id_idx on analytics.tag_category_coverage (category_id);
comment on materialized view analytics.tag_category_coverage is 'Per tag category: its tags, the files carrying at least one of them and the files carrying none. Refreshed within about a minute of a change (analytics.refreshed).';

-- Files without any tag.
create view analytics.untagged_files as
select f.id as file_id, f.name_es, f.name_en, f.extension as file_type, f.uploaded_on,
  coalesce(f.uploader_email, '') as uploader_email, f.published
from public.files f
where not exists (select from public.file_tags ft where ft.file_id = f.id);
comment on view analytics.untagged_files is 'Files that carry no tag at all.';

-- Collections: files in each, public or not.
create view analytics.collections as
with per_collection as (
  select cf.collection_id, count(*)::bigint as files,
    count(*) filter (where f.published)::bigint as published_files,
    sum(f.size)::bigint as total_bytes, max(cf.added_at) as last_file_added_at
  from public.collection_files cf
  join public.files f on f.id = cf.file_id
  group by cf.collection_id
)
select
  c.id as collection_id,
  c.name,
  c.is_public,
  coalesce(p.files, 0) as files,
  coalesce(p.published_files, 0) as published_files,
  coalesce(p.total_bytes, 0) as total_bytes,
  c.created_at,
  c.updated_at,
  p.last_file_added_at
from public.collections c
left join per_collection p on p.collection_id = c.id;
comment on view analytics.collections is 'Every collection, public or not, with its files (published ones are what a public link shows) and their size.';

-- Missing translations: Spanish and English texts the library asks for, where one is a copy or empty.
create view analytics.missing_translations as
select 'file'::text as item_type, f.id as item_id, f.name_es, f.name_en, issue
from public.files f
cross join lateral (
  values
    (case when f.name_es = f.name_en then 'name_en_same_as_name_es' end),
    (case when f.description_es <> '' and f.description_en = '' then 'description_en_missing' end),
    (case when f.description_en <> '' and f.description_es = '' then 'description_es_missing' end)
) as issues (issue)
-- The same conditions once more, so only the few files concerned reach the lateral expansion.
where issue is not null
  and (f.name_es = f.name_en or (f.description_es = '') <> (f.description_en = ''))
union all
select 'tag', t.id, t.name_es, t.name_en, 'name_en_same_as_name_es'
from public.tags t where t.name_es = t.name_en
union all
select 'tag_category', c.id, c.name_es, c.name_en, 'name_en_same_as_name_es'
from public.tag_categories c where c.name_es = c.name_en
union all
select 'academy_category', a.id, a.name_es, a.name_en, 'name_en_same_as_name_es'
from public.academy_categories a where a.name_es = a.name_en;
comment on view analytics.missing_translations is 'One row per missing translation: files, tags, tag categories and academy categories whose English text copies the Spanish one, and files with only one description.';

-- Academy videos with their likes and categories.
create view analytics.academy_videos as
with likes as (
  select l.video_id, count(*)::bigint as likes, max(l.liked_at) as last_liked_at
  from public.academy_likes l group by l.video_id
),
categories as (
  select vc.video_id, array_agg(c.name_es order by c.name_es) as categories,
    bool_or(c.is_private) as in_private_category
  from public.academy_video_categories vc
  join public.academy_categories c on c.id = vc.category_id
  group by vc.video_id
)
select
  v.id as video_id,
  v.title,
  v.language,
  v.youtube_url,
  v.created_on,
  coalesce(l.likes, 0) as likes,
  l.last_liked_at,
  coalesce(c.categories, '{}') as categories,
  coalesce(c.in_private_category, false) as in_private_category
from public.academy_videos v
left join likes l on l.video_id = v.id
left join categories c on c.video_id = v.id;
comment on view analytics.academy_videos is 'Every academy video with its likes, its categories (Spanish names) and whether any of them is private.';

-- Academy members per company and country (counts only: members' names and e-mails stay out).
create view analytics.academy_members as
with grants as (select g.user_id, count(*)::bigint as private_grants
  from public.academy_user_categories g
  join public.academy_categories c on c.id = g.category_id and c.is_private
  group by g.user_id)
select
  u.company,
  u.country,
  count(*)::bigint as members,
  count(g.user_id)::bigint as members_with_private_grants,
  coalesce(sum(g.private_grants), 0)::bigint as private_grants,
  min(u.created_on) as first_joined_on,
  max(u.created_on) as last_joined_on
from public.academy_users u
left join grants g on g.user_id = u.id
group by u.company, u.country;
comment on view analytics.academy_members is 'Academy members per company and country, and how many hold grants to private categories. No names or e-mails.';

-- Private academy categories and how many members were granted each.
create view analytics.academy_private_grants as
select c.id as category_id, c.name_es, c.name_en, count(g.user_id)::bigint as members_granted
from public.academy_categories c
left join public.academy_user_categories g on g.category_id = c.id
where c.is_private
group by c.id, c.name_es, c.name_en;
comment on view analytics.academy_private_grants is 'Each private academy category and how many members were granted access to it.';

-- Uploads per day.
create view analytics.uploads_per_day as
select
  (f.uploaded_on at time zone 'UTC')::date as day,
  count(*)::bigint as files,
  sum(f.size)::bigint as total_bytes,
  count(distinct f.uploader_id)::bigint as uploaders
from public.files f
group by 1;
comment on view analytics.uploads_per_day is 'Files uploaded per day (UTC), their size and how many different staff members uploaded them.';

-- When the materialized views were last refreshed.
create table private.analytics_refreshes (
  view_name text primary key,
  refreshed_at timestamptz not null
);
alter table private.analytics_refreshes enable row level security;
revoke all on private.analytics_refreshes from public, anon, authenticated;
insert into private.analytics_refreshes (view_name, refreshed_at) values ('tag_category_coverage', now());

create view analytics.refreshed as
select r.view_name, r.refreshed_at from private.analytics_refreshes r;
comment on view analytics.refreshed is 'When each materialized view of this schema was last refreshed (tag_category_coverage).';

-- The refresh_analytics job's work (run-jobs, service role).
create function public.refresh_analytics()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  refresh materialized view concurrently analytics.tag_category_coverage;
  update private.analytics_refreshes set refreshed_at = now() where view_name = 'tag_category_coverage';
end
$$;
revoke all on function public.refresh_analytics() from public, anon, authenticated;
grant execute on function public.refresh_analytics() to service_role;

-- Only the analyst role reads these; the API roles get nothing here (the schema is not exposed either).
revoke all on all tables in schema analytics from public, anon, authenticated, service_role;
grant usage on schema analytics to analyst;
grant select on all tables in schema analytics to analyst;
-- Views a later migration adds here are the analysts' too.
alter default privileges for role postgres in schema analytics grant select on tables to analyst;

-- Analysts --------------------------------------------------------------------------------------------------
-- Rights coverage per state, published or not. The state is written out here rather than read from the
-- private helpers, since a view's functions run with the analyst's rights (see share_links.sql).
create view analytics.rights_coverage as
with dated as (
  select f.published, f.size, f.rights_expire_on,
         (f.rights_creator = '' and f.rights_credit = '' and f.rights_copyright = '' and f.rights_license is null
          and f.rights_usage_terms = '' and f.rights_expire_on is null and f.rights_release is null) as no_data,
         (now() at time zone 'Europe/Madrid')::date as today
    from public.files f
)
select
  case
    when d.no_data then 'sin datos'
    when d.rights_expire_on < d.today then 'caducados'
    when d.rights_expire_on < d.today + 30 then 'caducan en 30 días'
    when d.rights_expire_on < d.today + 90 then 'caducan en 90 días'
    else 'vigentes'
  end as state,
  d.published,
  count(*)::bigint as files,
  coalesce(sum(d.size), 0)::bigint as total_bytes
from dated d
group by 1, 2;
comment on view analytics.rights_coverage is
  'Files per rights state (sin datos: nothing recorded; caducados: last day before today in Madrid; caducan en 30 días: last day within the next 30 days, today included; caducan en 90 días: within the 60 days after that; vigentes: later or no end date) and published or not, with their size in bytes.';

revoke all on analytics.rights_coverage from public, anon, authenticated, service_role;
grant select on analytics.rights_coverage to analyst;
