-- Staff accounts, and the helpers every policy uses to decide who may do what.
-- A staff member's role is one row per Auth user. Policies read the role only through
-- security-definer helpers with an empty search_path, wrapped in `(select …)` so Postgres evaluates them
-- once per statement. Only ADMIN and UPLOADER may use this site (the login check below); FRONT and
-- OPERATIONS hold accounts for other apps (operations_popup.sql).

create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

create type public.staff_role as enum ('ADMIN', 'UPLOADER', 'FRONT', 'OPERATIONS');

create table public.staff (
  user_id uuid primary key references auth.users (id) on delete cascade,
  email text not null check (char_length(email) between 3 and 320),
  role public.staff_role not null,
  created_at timestamptz not null default now()
);
comment on table public.staff is 'Role of each staff account. Written only by the staff-users edge function (service role).';

alter table public.staff enable row level security;

revoke all on public.staff from anon;
grant select on public.staff to authenticated;
grant all on public.staff to service_role;

-- Security switches. requireAdminMfa: when on, admin rights need a second factor. An admin whose
-- session has only passed the password (JWT `aal` = aal1) acts as an uploader in every policy, RPC and
-- function until they give their authenticator's code (aal2). The deployment setting of the same name
-- (src/config/deployment.ts) only changes what the app shows; this row is what Postgres enforces:
--   update private.security_settings set require_admin_mfa = true;
create table private.security_settings (
  id boolean primary key default true check (id),
  require_admin_mfa boolean not null default false
);
comment on table private.security_settings is
  'One row of security switches the access helpers read. Changed with SQL by whoever deploys (service role).';
insert into private.security_settings default values;

alter table private.security_settings enable row level security;
-- No policies: only the security-definer helpers below (and the service role) read it.
revoke all on private.security_settings from public, anon, authenticated;
grant all on private.security_settings to service_role;

-- The helpers --------------------------------------------------------------------------------------------

-- In PL/pgSQL rather than SQL, with the same answers: a security-definer SQL function is never inlined, and
-- Postgres (up to 17) plans its body again on every call from a new query; calls nested inside it are planned
-- again on each of its calls. is_admin() went through four such plannings (is_admin → effective_role_of_caller
-- → staff_role_of, admin_mfa_required): about 0.1 ms a call, twice in every policy check that asks is_admin() or
-- is_uploader(). PL/pgSQL keeps its statements' plans for the life of the connection, so the same call is about
-- 8 µs. Every request under RLS pays this once per policy; Realtime pays it once per subscriber and changed
-- table, which is where it showed (a `files` row checked for one subscriber: 0.23 → 0.02 ms).

create function private.staff_role_of(p_user_id uuid)
returns public.staff_role
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select s.role from public.staff s where s.user_id = p_user_id);
end
$$;

create function private.admin_mfa_required()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return coalesce((select s.require_admin_mfa from private.security_settings s), false);
end
$$;

-- The caller's role as the access rules see it: an ADMIN without aal2 counts as an UPLOADER when required.
create function private.effective_role_of_caller()
returns public.staff_role
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_role public.staff_role := private.staff_role_of(auth.uid());
begin
  if v_role = 'ADMIN' and private.admin_mfa_required() and coalesce(auth.jwt() ->> 'aal', '') <> 'aal2' then
    return 'UPLOADER';
  end if;
  return v_role;
end
$$;

create function private.is_admin()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return coalesce(private.effective_role_of_caller() = 'ADMIN', false);
end
$$;

create function private.is_uploader()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return coalesce(private.effective_role_of_caller() = 'UPLOADER', false);
end
$$;

-- ADMIN and UPLOADER are the only roles that may use this site; they read the shared catalogue.
create function private.is_library_staff()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return coalesce(private.staff_role_of(auth.uid()) in ('ADMIN', 'UPLOADER'), false);
end
$$;

revoke all on function private.staff_role_of(uuid), private.admin_mfa_required(), private.effective_role_of_caller(),
  private.is_admin(), private.is_uploader(), private.is_library_staff() from public;
grant execute on function private.staff_role_of(uuid), private.admin_mfa_required(),
  private.effective_role_of_caller(), private.is_admin(), private.is_uploader(), private.is_library_staff()
  to anon, authenticated, service_role;

create policy "Staff read their own account and admins read every account" on public.staff
  for select to authenticated
  using ((select private.is_admin()) or user_id = (select auth.uid()));

-- RPCs that change several rows call this first, so a non-admin is refused early with a stable code the UI
-- translates (NOT_ADMIN), before RLS would quietly filter every row away.
create function private.require_admin()
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only admins may do this' using errcode = '42501', hint = 'NOT_ADMIN';
  end if;
end
$$;
revoke all on function private.require_admin() from public;
grant execute on function private.require_admin() to authenticated, service_role;

-- Who is acting, for the records kept by the database itself (history, Papelera): the staff e-mail, or the
-- token's e-mail for anyone else.
create function private.current_actor_email()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select s.email from public.staff s where s.user_id = (select auth.uid())),
    nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email'
  )
$$;
revoke all on function private.current_actor_email() from public;

-- `updated_at` of the tables that keep one (collections, operations popup, server jobs).
create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- What the app is told ------------------------------------------------------------------------------------

-- The login check: the app asks for the caller's role after signing in, and signs out anyone who is not
-- ADMIN or UPLOADER (NOT_ADMIN / LOGIN_NOT_PERMITTED). The edge functions ask the same through the caller's
-- own token.
create function public.current_staff_role()
returns public.staff_role
language sql
stable
set search_path = ''
as $$
  select private.effective_role_of_caller()
$$;

create function public.can_sign_in()
returns boolean
language sql
stable
set search_path = ''
as $$
  select private.is_library_staff()
$$;

-- Whether this project requires aal2 for admin rights, so the app can say why an admin acts as an uploader.
create function public.admin_mfa_required()
returns boolean
language sql
stable
set search_path = ''
as $$
  select private.admin_mfa_required()
$$;

revoke all on function public.current_staff_role(), public.can_sign_in(), public.admin_mfa_required() from public, anon;
grant execute on function public.current_staff_role(), public.can_sign_in(), public.admin_mfa_required()
  to authenticated, service_role;

-- There is always at least one ADMIN ----------------------------------------------------------------------
-- No statement may delete or demote the last one, whoever runs it (the staff-users function, the service
-- role over the API, or deleting the Auth user, which cascades). Checked after each statement so that
-- multi-row changes are judged by their result; an advisory lock serialises concurrent changes to admins so
-- two of them cannot each remove "the other" admin.

create function private.keep_one_admin()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from changed_staff_rows where role = 'ADMIN') then
    perform pg_advisory_xact_lock(hashtext('public.staff admins'));
    if not exists (select 1 from public.staff where role = 'ADMIN') then
      raise exception 'No se puede quitar el último administrador.'
        using errcode = 'P0001', hint = 'LAST_ADMIN';
    end if;
  end if;
  return null;
end
$$;
revoke all on function private.keep_one_admin() from public;

create trigger staff_keep_one_admin_on_delete
  after delete on public.staff
  referencing old table as changed_staff_rows
  for each statement execute function private.keep_one_admin();

create trigger staff_keep_one_admin_on_update
  after update on public.staff
  referencing old table as changed_staff_rows
  for each statement execute function private.keep_one_admin();
