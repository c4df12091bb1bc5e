-- Like totals per video (spec section 3: "Like totals per video are computed"), as a PostgREST computed
-- field: `select=*,like_count`. It runs with the caller's rights, so an admin counts every like and a
-- member only ever counts their own.
create function public.like_count(p_video public.academy_videos)
returns bigint
language sql
stable
set search_path = ''
as $$
  select count(*) from public.academy_likes l where l.video_id = p_video.id
$$;
revoke all on function public.like_count(public.academy_videos) from public, anon;
grant execute on function public.like_count(public.academy_videos) to authenticated, service_role;
