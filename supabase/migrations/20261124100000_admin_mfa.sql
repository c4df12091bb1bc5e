-- requireAdminMfa (issue 24): when on, admin rights need a second factor. An admin whose session has only
-- passed the password (JWT `aal` = aal1) acts as an uploader in every policy, RPC and function until they
-- give their authenticator's code (aal2). The deployment setting of the same name (src/config/deployment.ts)
-- only changes what the app shows; this row is what Postgres enforces. Turn it on per project with
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

create function private.admin_mfa_required()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select s.require_admin_mfa from private.security_settings s), false)
$$;

-- The caller's role as the access rules see it: an ADMIN without aal2 counts as an UPLOADER when required.
create function private.effective_role_of_caller()
returns public.staff_role
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when r.role = 'ADMIN' and private.admin_mfa_required()
      and coalesce(auth.jwt() ->> 'aal', '') <> 'aal2' then 'UPLOADER'::public.staff_role
    else r.role
  end
  from (select private.staff_role_of(auth.uid()) as role) r
$$;

create or replace function private.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.effective_role_of_caller() = 'ADMIN', false)
$$;

create or replace function private.is_uploader()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.effective_role_of_caller() = 'UPLOADER', false)
$$;

-- What the app (and the edge functions, through the caller's own token) are told the caller is.
create or replace function public.current_staff_role()
returns public.staff_role
language sql
stable
set search_path = ''
as $$
  select private.effective_role_of_caller()
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

revoke all on function private.admin_mfa_required(), private.effective_role_of_caller() from public;
grant execute on function private.admin_mfa_required(), private.effective_role_of_caller()
  to anon, authenticated, service_role;
revoke all on function public.admin_mfa_required() from public, anon;
grant execute on function public.admin_mfa_required() to authenticated, service_role;
