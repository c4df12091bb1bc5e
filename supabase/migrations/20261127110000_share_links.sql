-- Enlaces compartidos: an admin hands chosen files (or a collection, as it changes) to someone outside the
-- group with a link {site}/s/{token} that may expire, may ask for a password, may forbid downloading the
-- originals, and can be revoked at once.
--
-- Who reads what:
--   * admins read the links and their file lists through RLS and change them only through the RPCs below
--     (the token and the password never live in a table they can read);
--   * anonymous visitors have no table rights at all: open_share_link (security definer, takes the token)
--     returns the page's data, and the share-link-media edge function asks share_link_media (service role
--     only) before it signs a render or original URL. Both decide "active" at read time from the link row,
--     so expiry and revocation take effect on the next request, with no job in between.
--
-- Secrets: the token is 192 bits from pgcrypto's gen_random_bytes (OpenSSL's CSPRNG) and only its SHA-256 is
-- kept (a token is high-entropy, so a fast hash is enough to make a leaked table useless); the password is a
-- bcrypt hash (crypt/gen_salt('bf')). After a right password the visitor gets a grant: another random secret,
-- stored hashed, bound to that one link, valid for an hour, and deleted when the link is revoked or its
-- password changes.

create table public.share_links (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 200 and name !~ '[[:cntrl:]]'),
  -- 'files': exactly the files chosen at creation (share_link_files); 'collection': whatever the collection
  -- holds when the link is opened. A deleted collection leaves the link showing nothing.
  kind text not null check (kind in ('files', 'collection')),
  collection_id uuid references public.collections (id) on delete set null,
  expires_at timestamptz,
  has_password boolean not null default false,
  allow_downloads boolean not null default true,
  revoked_at timestamptz,
  created_by uuid default auth.uid(),
  created_by_email text,
  created_at timestamptz not null default now(),
  file_count integer not null default 0,
  -- Counted by the server: a successful open of the page, an original handed out.
  views bigint not null default 0,
  downloads bigint not null default 0
);
create index share_links_created_at_idx on public.share_links (created_at desc);
create index share_links_collection_id_idx on public.share_links (collection_id);
comment on table public.share_links is 'Enlaces compartidos. Admins read them; every write goes through create/update/revoke_share_link.';

-- No foreign key to files on purpose: a file sent to the Papelera leaves public.files and so drops out of
-- every link at once, and comes back with it if it is restored.
create table public.share_link_files (
  link_id uuid not null references public.share_links (id) on delete cascade,
  file_id uuid not null,
  primary key (link_id, file_id)
);

alter table public.share_links enable row level security;
alter table public.share_link_files enable row level security;
create policy "Admins read share links" on public.share_links
  for select to authenticated using ((select private.is_admin()));
create policy "Admins read share link files" on public.share_link_files
  for select to authenticated using ((select private.is_admin()));
revoke all on public.share_links, public.share_link_files from anon, authenticated;
grant select on public.share_links, public.share_link_files to authenticated;
grant all on public.share_links, public.share_link_files to service_role;

-- What nobody reads through the API.
create table private.share_link_secrets (
  link_id uuid primary key references public.share_links (id) on delete cascade,
  token_hash bytea not null unique,
  password_hash text
);
create table private.share_link_grants (
  grant_hash bytea primary key,
  link_id uuid not null references public.share_links (id) on delete cascade,
  expires_at timestamptz not null
);
create index share_link_grants_link_id_idx on private.share_link_grants (link_id);
-- Wrong passwords per client address (the key GoTrue's rate limits use), kept for the 15-minute window.
create table private.share_link_password_failures (
  id bigint generated always as identity primary key,
  client_address text not null,
  failed_at timestamptz not null default now()
);
create index share_link_password_failures_idx on private.share_link_password_failures (client_address, failed_at);
-- Views and downloads per link and calendar month (UTC), for the analysts.
create table private.share_link_usage (
  link_id uuid not null references public.share_links (id) on delete cascade,
  month date not null,
  views bigint not null default 0,
  downloads bigint not null default 0,
  primary key (link_id, month)
);
alter table private.share_link_secrets enable row level security;
alter table private.share_link_grants enable row level security;
alter table private.share_link_password_failures enable row level security;
alter table private.share_link_usage enable row level security;
revoke all on private.share_link_secrets, private.share_link_grants, private.share_link_password_failures,
  private.share_link_usage from public, anon, authenticated;

-- Helpers ----------------------------------------------------------------------------------------------------

create function private.share_secret_hash(p_secret text)
returns bytea
language sql
immutable
set search_path = ''
as $$
  select extensions.digest(convert_to(coalesce(p_secret, ''), 'UTF8'), 'sha256')
$$;

-- A URL-safe random secret of p_bytes bytes.
create function private.new_share_secret(p_bytes integer)
returns text
language sql
volatile
set search_path = ''
as $$
  select translate(rtrim(encode(extensions.gen_random_bytes(p_bytes), 'base64'), '='), '+/', '-_')
$$;

-- THE rule for which files a link may show. Files in the Papelera are not in public.files at all, so they are
-- out already; unpublished files are in on purpose (sharing them by link is an admin's explicit choice).
-- Any later rule (expired rights, say) is added here and reaches the page, renders, originals and ZIP at once.
create function private.file_is_shareable(p_file public.files)
returns boolean
language sql
stable
set search_path = ''
as $$
  select not private.rights_expired(p_file.rights_expire_on)
$$;

-- The files a link shows now, newest first.
create function private.share_link_current_files(p_link public.share_links)
returns setof public.files
language sql
stable
set search_path = ''
as $$
  select f.*
    from public.files f
   where private.file_is_shareable(f)
     and ((p_link.kind = 'files'
           and f.id in (select lf.file_id from public.share_link_files lf where lf.link_id = p_link.id))
       or (p_link.kind = 'collection'
           and f.id in (select cf.file_id from public.collection_files cf where cf.collection_id = p_link.collection_id)))
   order by f.uploaded_on desc, f.id
$$;

-- The link a token names, only while it is active (not revoked, not expired, its collection still there).
create function private.active_share_link(p_token text)
returns public.share_links
language sql
stable
set search_path = ''
as $$
  select l.*
    from private.share_link_secrets s
    join public.share_links l on l.id = s.link_id
   where s.token_hash = private.share_secret_hash(p_token)
     and l.revoked_at is null
     and (l.expires_at is null or l.expires_at > now())
     and (l.kind = 'files' or l.collection_id is not null)
$$;

-- Whether a grant proves the password of this link (a grant of another link proves nothing here).
create function private.share_grant_is_valid(p_link_id uuid, p_grant text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select p_grant is not null and exists (
    select 1 from private.share_link_grants g
     where g.grant_hash = private.share_secret_hash(p_grant) and g.link_id = p_link_id and g.expires_at > now())
$$;

-- The caller's address as GoTrue keys its rate limits: the first value of X-Forwarded-For (hosted Supabase's
-- edge always sets it). Null when there is none (a local tool calling PostgREST directly is not limited).
create function private.request_client_address()
returns text
language sql
stable
set search_path = ''
as $$
  select nullif(btrim(split_part(
    coalesce(nullif(current_setting('request.headers', true), '')::jsonb ->> 'x-forwarded-for', ''), ',', 1)), '')
$$;

create function private.count_share_link_use(p_link_id uuid, p_views integer, p_downloads integer)
returns void
language sql
volatile
set search_path = ''
as $$
  update public.share_links set views = views + p_views, downloads = downloads + p_downloads where id = p_link_id;
  insert into private.share_link_usage as u (link_id, month, views, downloads)
  values (p_link_id, date_trunc('month', now() at time zone 'UTC')::date, p_views, p_downloads)
  on conflict (link_id, month) do update set views = u.views + excluded.views, downloads = u.downloads + excluded.downloads;
$$;

revoke all on function private.share_secret_hash(text), private.new_share_secret(integer),
  private.file_is_shareable(public.files), private.share_link_current_files(public.share_links),
  private.active_share_link(text), private.share_grant_is_valid(uuid, text), private.request_client_address(),
  private.count_share_link_use(uuid, integer, integer) from public;

-- Visitors --------------------------------------------------------------------------------------------------

-- The page behind {site}/s/{token}. Answers one of:
--   {status: 'unavailable'}        unknown, revoked or expired (the same answer for all three);
--   {status: 'password_required'}  the link has a password and no valid grant was given;
--   {status: 'wrong_password'}     and the failure is counted against the caller's address;
--   {status: 'too_many_attempts'}  5 wrong passwords from this address in the last 15 minutes;
--   {status: 'ok', grant?, name, allowDownloads, expiresAt, files}  and the view is counted.
create function public.open_share_link(p_token text, p_password text default null, p_grant text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  link public.share_links;
  secret private.share_link_secrets;
  address text;
  new_grant text;
begin
  link := private.active_share_link(p_token);
  if link.id is null then
    return jsonb_build_object('status', 'unavailable');
  end if;
  if link.has_password and not private.share_grant_is_valid(link.id, p_grant) then
    if p_password is null or p_password = '' then
      return jsonb_build_object('status', 'password_required');
    end if;
    address := private.request_client_address();
    if address is not null and (select count(*) from private.share_link_password_failures f
                                 where f.client_address = address
                                   and f.failed_at > now() - interval '15 minutes') >= 5 then
      return jsonb_build_object('status', 'too_many_attempts');
    end if;
    select * into secret from private.share_link_secrets s where s.link_id = link.id;
    if secret.password_hash is null or extensions.crypt(p_password, secret.password_hash) <> secret.password_hash then
      if address is not null then
        delete from private.share_link_password_failures f where f.failed_at < now() - interval '15 minutes';
        insert into private.share_link_password_failures (client_address) values (address);
      end if;
      return jsonb_build_object('status', 'wrong_password');
    end if;
    new_grant := private.new_share_secret(32);
    delete from private.share_link_grants g where g.link_id = link.id and g.expires_at < now();
    insert into private.share_link_grants (grant_hash, link_id, expires_at)
    values (private.share_secret_hash(new_grant), link.id, now() + interval '1 hour');
  end if;
  perform private.count_share_link_use(link.id, 1, 0);
  return jsonb_build_object(
    'status', 'ok',
    'grant', coalesce(new_grant, case when link.has_password then p_grant end),
    'name', link.name,
    'allowDownloads', link.allow_downloads,
    'expiresAt', link.expires_at,
    'files', coalesce((select jsonb_agg(private.public_file_json(f) order by f.uploaded_on desc, f.id) from private.share_link_current_files(link) f),
                      '[]'::jsonb)
  );
end
$$;
revoke all on function public.open_share_link(text, text, text) from public;
grant execute on function public.open_share_link(text, text, text) to anon, authenticated, service_role;

-- What the share-link-media function may sign for one file of a link, asked again on every request:
--   {status: 'unavailable'}            inactive link, missing or foreign grant, or a file the link does not show;
--   {status: 'download_not_allowed'}   an original asked of a link without downloads;
--   {status: 'ok', objectPath, fileName, isImage}  and an original counts as a download.
create function public.share_link_media(p_token text, p_grant text, p_file_id uuid, p_original boolean)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  link public.share_links;
  file public.files;
begin
  link := private.active_share_link(p_token);
  if link.id is null or (link.has_password and not private.share_grant_is_valid(link.id, p_grant)) then
    return jsonb_build_object('status', 'unavailable');
  end if;
  select * into file from private.share_link_current_files(link) f where f.id = p_file_id;
  if file.id is null then
    return jsonb_build_object('status', 'unavailable');
  end if;
  if p_original and not link.allow_downloads then
    return jsonb_build_object('status', 'download_not_allowed');
  end if;
  if p_original then
    perform private.count_share_link_use(link.id, 0, 1);
  end if;
  return jsonb_build_object('status', 'ok', 'objectPath', file.object_path, 'fileName', file.original_file_name,
                            'isImage', file.is_image);
end
$$;
revoke all on function public.share_link_media(text, text, uuid, boolean) from public, anon, authenticated;
grant execute on function public.share_link_media(text, text, uuid, boolean) to service_role;

-- Admins ----------------------------------------------------------------------------------------------------

create function private.check_share_link_password(p_password text)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_password is not null and char_length(p_password) not between 4 and 200 then
    raise exception 'La contraseña debe tener entre 4 y 200 caracteres' using errcode = '22023', hint = 'INVALID_PASSWORD';
  end if;
end
$$;
revoke all on function private.check_share_link_password(text) from public;

-- A new link to a collection (p_collection_id) or to files (ids, or the files screen's filter). Returns the
-- link's id and its token: the only time the token leaves the database.
create function public.create_share_link(
  p_name text,
  p_expires_at timestamptz,
  p_password text default null,
  p_allow_downloads boolean default true,
  p_collection_id uuid default null,
  p_file_ids uuid[] default null,
  p_filter jsonb default null
)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  ids uuid[];
  token text := private.new_share_secret(24);
  password text := nullif(p_password, '');
  link_id uuid;
begin
  perform private.require_admin();
  perform private.check_share_link_password(password);
  if p_collection_id is not null then
    if not exists (select 1 from public.collections c where c.id = p_collection_id) then
      raise exception 'La colección no existe' using errcode = 'P0002', hint = 'NOT_FOUND';
    end if;
  else
    ids := private.target_file_ids(p_file_ids, p_filter);
    if cardinality(ids) = 0 then
      raise exception 'No hay archivos que compartir' using errcode = 'P0002', hint = 'NO_FILES';
    end if;
  end if;
  insert into public.share_links (name, kind, collection_id, expires_at, has_password, allow_downloads,
                                  created_by, created_by_email, file_count)
  values (btrim(p_name), case when p_collection_id is null then 'files' else 'collection' end, p_collection_id,
          p_expires_at, password is not null, coalesce(p_allow_downloads, true), auth.uid(),
          private.current_actor_email(), coalesce(cardinality(ids), 0))
  returning id into link_id;
  insert into public.share_link_files (link_id, file_id) select link_id, unnest(ids) where ids is not null;
  insert into private.share_link_secrets (link_id, token_hash, password_hash)
  values (link_id, private.share_secret_hash(token),
          case when password is not null then extensions.crypt(password, extensions.gen_salt('bf', 10)) end);
  return jsonb_build_object('id', link_id, 'token', token);
end
$$;

-- Edit: name, expiry (null: none), downloads, and the password ('keep', 'set' with p_password, 'remove').
-- A changed password or a revocation drops every grant, so what a visitor proved before proves nothing now.
create function public.update_share_link(
  p_id uuid,
  p_name text,
  p_expires_at timestamptz,
  p_allow_downloads boolean,
  p_password_action text default 'keep',
  p_password text default null
)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  if p_password_action not in ('keep', 'set', 'remove') then
    raise exception 'Unknown password action' using errcode = '22023';
  end if;
  if p_password_action = 'set' then
    if nullif(p_password, '') is null then
      raise exception 'La contraseña debe tener entre 4 y 200 caracteres' using errcode = '22023', hint = 'INVALID_PASSWORD';
    end if;
    perform private.check_share_link_password(p_password);
  end if;
  update public.share_links
     set name = btrim(p_name), expires_at = p_expires_at, allow_downloads = coalesce(p_allow_downloads, allow_downloads),
         has_password = case p_password_action when 'set' then true when 'remove' then false else has_password end
   where id = p_id;
  if not found then
    raise exception 'El enlace no existe' using errcode = 'P0002', hint = 'NOT_FOUND';
  end if;
  if p_password_action <> 'keep' then
    update private.share_link_secrets
       set password_hash = case when p_password_action = 'set'
                                then extensions.crypt(p_password, extensions.gen_salt('bf', 10)) end
     where link_id = p_id;
    delete from private.share_link_grants where link_id = p_id;
  end if;
end
$$;

create function public.revoke_share_link(p_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  update public.share_links set revoked_at = coalesce(revoked_at, now()) where id = p_id;
  if not found then
    raise exception 'El enlace no existe' using errcode = 'P0002', hint = 'NOT_FOUND';
  end if;
  delete from private.share_link_grants where link_id = p_id;
end
$$;

revoke all on function public.create_share_link(text, timestamptz, text, boolean, uuid, uuid[], jsonb),
  public.update_share_link(uuid, text, timestamptz, boolean, text, text), public.revoke_share_link(uuid)
  from public, anon;
grant execute on function public.create_share_link(text, timestamptz, text, boolean, uuid, uuid[], jsonb),
  public.update_share_link(uuid, text, timestamptz, boolean, text, text), public.revoke_share_link(uuid)
  to authenticated, service_role;

-- Analysts --------------------------------------------------------------------------------------------------

-- A link's state as the Enlaces screen shows it (Activo / Caducado / Revocado). Written out in each view
-- rather than as a function, since a view's functions run with the analyst's rights and `analyst` gets
-- nothing outside the analytics schema.
create view analytics.share_links_by_state as
select case when l.revoked_at is not null then 'revoked'
            when l.expires_at is not null and l.expires_at <= now() then 'expired'
            else 'active' end as state, count(*)::bigint as links,
       coalesce(sum(l.views), 0)::bigint as views, coalesce(sum(l.downloads), 0)::bigint as downloads
from public.share_links l
group by 1;
comment on view analytics.share_links_by_state is 'Shared links (Enlaces) per state (active, expired, revoked) with their views and downloads.';

create view analytics.share_link_usage as
select l.id as link_id, l.name, l.kind,
       case when l.revoked_at is not null then 'revoked'
            when l.expires_at is not null and l.expires_at <= now() then 'expired'
            else 'active' end as state, l.created_at, l.expires_at,
       l.has_password, l.allow_downloads, l.views, l.downloads
from public.share_links l;
comment on view analytics.share_link_usage is 'Each shared link (Enlaces): what it shares, its state and its views and downloads so far. No tokens, passwords or creators.';

create view analytics.share_link_usage_by_month as
select u.link_id, l.name, u.month, u.views, u.downloads
from private.share_link_usage u
join public.share_links l on l.id = u.link_id;
comment on view analytics.share_link_usage_by_month is 'Views and downloads of each shared link per calendar month (UTC).';

revoke all on analytics.share_links_by_state, analytics.share_link_usage, analytics.share_link_usage_by_month
  from public, anon, authenticated, service_role;
grant select on analytics.share_links_by_state, analytics.share_link_usage, analytics.share_link_usage_by_month
  to analyst;
