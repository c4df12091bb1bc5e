-- The collections list shows each collection's file count (spec section 5). Counting the links of every
-- collection on each list read grows with the library, so the count is kept on the row, maintained by
-- statement-level triggers: a bulk "Añadir a colección" of 10,000 files updates each collection once.
-- Clients never write the count: they may only insert and update the name and the public flag.

alter table public.collections
  add column file_count integer not null default 0 check (file_count >= 0);

update public.collections c
   set file_count = (select count(*) from public.collection_files cf where cf.collection_id = c.id);

create function private.count_added_collection_files()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.collections c
     set file_count = c.file_count + added.n
    from (select collection_id, count(*)::integer as n from new_links group by collection_id) as added
   where c.id = added.collection_id;
  return null;
end
$$;

create function private.count_removed_collection_files()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.collections c
     set file_count = greatest(c.file_count - removed.n, 0)
    from (select collection_id, count(*)::integer as n from old_links group by collection_id) as removed
   where c.id = removed.collection_id;
  return null;
end
$$;

revoke all on function private.count_added_collection_files(), private.count_removed_collection_files() from public;

create trigger collection_files_count_added
  after insert on public.collection_files
  referencing new table as new_links
  for each statement execute function private.count_added_collection_files();

create trigger collection_files_count_removed
  after delete on public.collection_files
  referencing old table as old_links
  for each statement execute function private.count_removed_collection_files();

revoke insert, update on public.collections from authenticated;
grant insert (id, name, is_public), update (name, is_public) on public.collections to authenticated;
