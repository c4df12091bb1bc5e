-- auth.uid(), auth.role(), auth.email() and auth.jwt() as GoTrue's migrations really define them: `nullif`
-- on each setting before `coalesce`. Once a transaction has set `request.jwt.claim.sub` locally (Storage
-- does), the connection keeps an empty string for it afterwards, and the contract's shape
-- `nullif(coalesce(claim.sub, claims->>'sub'), '')` then returns NULL for every later caller on that
-- pooled connection — RLS hid users' own rows from Realtime after Storage had used the same pool.
create or replace function auth.uid() returns uuid
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

create or replace function auth.jwt() returns jsonb
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;
