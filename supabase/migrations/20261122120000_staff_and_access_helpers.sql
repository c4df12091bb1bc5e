-- Staff accounts and the helpers every policy uses to decide who may do what.
-- The spec's `users/{uid}.role` becomes one row per auth user; the role is read through security-definer
-- helpers with an empty search_path, wrapped in `(select …)` by policies so Postgres evaluates them once
-- per statement.

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

create function private.staff_role_of(p_user_id uuid)
returns public.staff_role
language sql
stable
security definer
set search_path = ''
as $$
  select s.role from public.staff s where s.user_id = p_user_id
$$;

create function private.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.staff_role_of(auth.uid()) = 'ADMIN', false)
$$;

create function private.is_uploader()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.staff_role_of(auth.uid()) = 'UPLOADER', false)
$$;

-- ADMIN and UPLOADER are the only roles that may use this site; they read the shared catalogue.
create function private.is_library_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.staff_role_of(auth.uid()) in ('ADMIN', 'UPLOADER'), false)
$$;

revoke all on function private.staff_role_of(uuid), private.is_admin(), private.is_uploader(),
  private.is_library_staff() from public;
grant execute on function private.staff_role_of(uuid), private.is_admin(), private.is_uploader(),
  private.is_library_staff() to anon, authenticated, service_role;

create policy "Staff read their own account and admins read every account" on public.staff
  for select to authenticated
  using ((select private.is_admin()) or user_id = (select auth.uid()));

revoke all on public.staff from anon;
grant select on public.staff to authenticated;
grant all on public.staff to service_role;

-- The login check: the app asks for the caller's role after signing in, and signs out anyone who is not
-- ADMIN or UPLOADER (NOT_ADMIN / LOGIN_NOT_PERMITTED).
create function public.current_staff_role()
returns public.staff_role
language sql
stable
set search_path = ''
as $$
  select private.staff_role_of(auth.uid())
$$;

create function public.can_sign_in()
returns boolean
language sql
stable
set search_path = ''
as $$
  select private.is_library_staff()
$$;

revoke all on function public.current_staff_role(), public.can_sign_in() from public, anon;
grant execute on function public.current_staff_role(), public.can_sign_in() to authenticated, service_role;
