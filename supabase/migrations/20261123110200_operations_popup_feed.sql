-- The operations popup as the hotel's front-desk and operations staff read it (they cannot sign in to
-- this site but hold accounts and read through the API): POST /rest/v1/rpc/active_operations_popup.
-- Their roles get no access to the table itself; this function returns the popup only while it is active.
--
-- The message is stored as HTML-escaped text whose only tag is <br> (one per line break, as in the
-- original product), so a consumer may render it as HTML and nothing a writer typed becomes markup.
-- The constraint makes that a database rule, not only the form's habit.

alter table public.operations_popup
  add constraint operations_popup_message_only_br
  check (replace(message, '<br>', '') !~ '[<>]');

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
