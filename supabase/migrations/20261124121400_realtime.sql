-- Tables the app watches live (another member of staff uploads, tags or publishes; an admin sees likes and
-- the Papelera change): added to the supabase_realtime publication, never by dropping and re-creating it.
-- Realtime checks each change against the subscriber's RLS before delivering it.

alter publication supabase_realtime add table
  public.files,
  public.file_tags,
  public.tags,
  public.tag_categories,
  public.collections,
  public.collection_files,
  public.staff,
  public.academy_videos,
  public.academy_categories,
  public.academy_video_categories,
  public.academy_users,
  public.academy_user_categories,
  public.academy_likes,
  public.operations_popup,
  public.trashed_files;
