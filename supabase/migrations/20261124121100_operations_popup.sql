-- The operations popup: one message admins write and the hotel's front-desk and operations staff read.
-- FRONT and OPERATIONS cannot sign in to this site but hold accounts and read it through the API
-- (POST /rest/v1/rpc/active_operations_popup); their roles get no access to the table itself.
--
-- The message is stored as HTML-escaped text whose only tag is <br> (one per line break, as in the original
-- product), so a consumer may render it as HTML and nothing a writer typed becomes markup. The constraint
-- makes that a database rule, not only the form's habit.

create table public.operations_popup (
  id smallint primary key default 1 check (id = 1),
  title text not null default '' check (char_length(title) <= 300),
  message text not null default '' check (char_length(message) <= 10000),
  active boolean not null default false,
  updated_at timestamptz not null default now(),
  constraint operations_popup_message_only_br check (replace(message, '<br>', '') !~ '[<>]')
);
insert into public.operations_popup (id) values (1) on conflict do nothing;

alter table public.operations_popup enable row level security;
create policy "Admins read the operations popup" on public.operations_popup
  for select to authenticated using ((select private.is_admin()));
create policy "Admins update the operations popup" on public.operations_popup
  for update to authenticated using ((select private.is_admin())) with check ((select private.is_admin()));

revoke all on public.operations_popup from anon;
grant select, update on public.operations_popup to authenticated;
grant all on public.operations_popup to service_role;

create trigger operations_popup_touch_updated_at
  before update on public.operations_popup
  for each row execute function private.touch_updated_at();

-- The popup while it is active, for ADMIN, FRONT and OPERATIONS.
create function public.active_operations_popup()
returns table (title text, message text, updated_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select p.title, p.message, p.updated_at
    from public.operations_popup p
   where p.active
     and private.staff_role_of(auth.uid()) in ('ADMIN', 'FRONT', 'OPERATIONS')
$$;

revoke execute on function public.active_operations_popup() from public, anon;
grant execute on function public.active_operations_popup() to authenticated, service_role;
