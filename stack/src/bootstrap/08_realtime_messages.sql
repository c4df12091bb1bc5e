-- Supabase compatibility layer: Realtime Authorization for private channels.
-- Realtime decides who may join a private channel, broadcast on it and use presence with RLS policies on
-- realtime.messages, reading the channel name through realtime.topic(). Same table shape and grants as
-- Realtime's tenant migrations (without the daily partitions, which only serve message retention), so a
-- migration written for Supabase that adds policies to realtime.messages applies here unchanged.
create schema if not exists realtime;
grant usage on schema realtime to postgres, anon, authenticated, service_role;

create table realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  id uuid not null default gen_random_uuid(),
  primary key (id, inserted_at)
);
alter table realtime.messages enable row level security;
alter table realtime.messages owner to supabase_realtime_admin;
grant select, insert, update on realtime.messages to anon, authenticated;
grant all on realtime.messages to postgres, service_role;

-- The channel name (without the `realtime:` prefix) while Realtime checks a policy.
create function realtime.topic() returns text
language sql stable
as $$ select nullif(current_setting('realtime.topic', true), '')::text $$;
alter function realtime.topic() owner to supabase_realtime_admin;
grant execute on function realtime.topic() to postgres, anon, authenticated, service_role;

-- Migrations (run as `postgres`) create the policies through the policy grants of
-- 11_privileged_role_grants.sql, as supautils allows on hosted Supabase.
