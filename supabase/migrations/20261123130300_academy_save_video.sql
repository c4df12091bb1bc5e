-- Saving a video with its categories changes several rows; one RPC call is one transaction, so a failure
-- half-way leaves no video without its categories. Security invoker: the admin-only policies on the tables
-- still decide, and require_admin() refuses early with NOT_ADMIN. (Access grants already have
-- set_academy_user_categories.)

create function public.save_academy_video(
  p_youtube_id text,
  p_youtube_url text,
  p_language text,
  p_title text,
  p_category_ids uuid[],
  p_thumbnail_url text default null,
  -- null creates; an id updates that video's title, language and categories (its link stays).
  p_id uuid default null
)
returns uuid
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid;
begin
  perform private.require_admin();
  if p_id is null then
    insert into public.academy_videos (youtube_id, youtube_url, language, title, thumbnail_url)
    values (p_youtube_id, p_youtube_url, p_language, btrim(p_title), p_thumbnail_url)
    returning id into v_id;
  else
    update public.academy_videos
       set language = p_language, title = btrim(p_title)
     where id = p_id
    returning id into v_id;
    if v_id is null then
      raise exception 'academy video % not found', p_id using errcode = 'P0002';
    end if;
    delete from public.academy_video_categories
     where video_id = v_id and category_id <> all (coalesce(p_category_ids, '{}'));
  end if;
  insert into public.academy_video_categories (video_id, category_id)
  select v_id, c from unnest(coalesce(p_category_ids, '{}')) as c
  on conflict do nothing;
  return v_id;
end
$$;
revoke all on function public.save_academy_video(text, text, text, text, uuid[], text, uuid) from public, anon;
grant execute on function public.save_academy_video(text, text, text, text, uuid[], text, uuid)
  to authenticated, service_role;
