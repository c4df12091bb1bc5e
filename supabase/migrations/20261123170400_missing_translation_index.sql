-- The 'Sin traducir' filter (20261123150100) scanned every file to find the few that need English texts
-- (bench/search.ts: p95 over the 150 ms goal). A partial index holding only those files, in the files
-- screen's default order, answers both its page and its count from the index. Its predicate is written
-- exactly as private.file_filter_condition writes the filter, so the planner can match the two.
create index files_missing_translation_idx on public.files (uploaded_on desc, id)
  where (btrim(name_en) = '' or name_en = name_es or (btrim(description_es) <> '' and btrim(description_en) = ''));
