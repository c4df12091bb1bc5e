-- Bulk tagging of overlapping selections by two people at once deadlocked (40P01, found by the 50-person load
-- benchmark): each call deletes and inserts its files' tag links in whatever order the scans meet them, so
-- each could wait for a link the other had just written. Locking the selected files first, in id order,
-- makes overlapping calls take turns (as the detail form's update_file already does with its one file:
-- files first, then links); calls on disjoint files still run side by side.
create or replace function public.set_files_tags(p_tag_ids uuid[], p_file_ids uuid[] default null,
                                                 p_filter jsonb default null)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  ids uuid[];
begin
  if not private.is_library_staff() then
    raise exception 'Only library staff may tag files' using errcode = '42501', hint = 'NOT_ADMIN';
  end if;
  ids := private.target_file_ids(p_file_ids, p_filter);
  if not private.is_admin() and exists (
       select 1 from unnest(ids) as t(id) where not private.owns_file(t.id)) then
    raise exception 'Uploaders may only tag their own files' using errcode = '42501', hint = 'NOT_ADMIN';
  end if;
  perform 1 from public.files f where f.id = any(ids) order by f.id for no key update;
  delete from public.file_tags ft
   where ft.file_id = any(ids) and not (ft.tag_id = any(coalesce(p_tag_ids, '{}')));
  insert into public.file_tags (file_id, tag_id)
  select f.id, t.id from unnest(ids) as f(id) cross join unnest(coalesce(p_tag_ids, '{}')) as t(id)
  order by 1, 2
  on conflict do nothing;
  return coalesce(array_length(ids, 1), 0);
end
$$;
