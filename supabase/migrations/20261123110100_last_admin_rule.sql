-- There is always at least one ADMIN: no statement may delete or demote the last one, whoever runs it
-- (the staff-users function, the service role over the API, or deleting the Auth user, which cascades).
-- Checked after each statement so that multi-row changes are judged by their result; an advisory lock
-- serialises concurrent changes to admins so two of them cannot each remove "the other" admin.

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
