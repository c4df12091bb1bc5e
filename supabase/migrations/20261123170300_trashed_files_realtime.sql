-- The Papelera follows deletions, restores and purges made elsewhere (another admin, another tab, the
-- purge job) live. Realtime checks each change against the subscriber's RLS: admins only.
alter publication supabase_realtime add table public.trashed_files;
