-- GoTrue's WebAuthn factor columns (migrations 20241009103726_add_web_authn, 20250925093508) and its OAuth 2.1
-- server's client table (20250731150234 and the changes after it, as they stand now). `if not exists`
-- throughout, so this file and a bootstrap that already adds some of them apply in either order.

alter table auth.mfa_factors add column if not exists web_authn_credential jsonb null;
alter table auth.mfa_factors add column if not exists web_authn_aaguid uuid null;
alter table auth.mfa_factors add column if not exists last_webauthn_challenge_data jsonb null;
alter table auth.mfa_challenges add column if not exists web_authn_session_data jsonb null;

do $$ begin
  create type auth.oauth_registration_type as enum ('dynamic', 'manual');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type auth.oauth_client_type as enum ('public', 'confidential');
exception when duplicate_object then null;
end $$;

create table if not exists auth.oauth_clients (
  id uuid not null primary key,
  client_secret_hash text null,
  registration_type auth.oauth_registration_type not null,
  redirect_uris text not null,
  grant_types text not null,
  client_name text null check (char_length(client_name) <= 1024),
  client_uri text null check (char_length(client_uri) <= 2048),
  logo_uri text null check (char_length(logo_uri) <= 2048),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz null,
  client_type auth.oauth_client_type not null default 'confidential',
  token_endpoint_auth_method text not null
    check (token_endpoint_auth_method in ('client_secret_basic', 'client_secret_post', 'none'))
);
create index if not exists oauth_clients_deleted_at_idx on auth.oauth_clients (deleted_at);

alter table auth.oauth_clients owner to supabase_auth_admin;
alter type auth.oauth_registration_type owner to supabase_auth_admin;
alter type auth.oauth_client_type owner to supabase_auth_admin;
grant all on auth.oauth_clients to postgres, dashboard_user;
