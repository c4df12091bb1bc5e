-- The files screen's timeline: how many of the filtered files fall in each month, for the scrubber along the
-- grid's right edge. The grid loads pages as the person scrolls; the scrubber needs every month of the whole
-- filtered result to let them jump anywhere, and the jump itself is a keyset page that starts at the month
-- (search_files after the month's boundary), not every page before it.

-- The date column a sort orders by, or null for a sort that is not by date: the one place that says so for
-- the months (the grid's month headings follow the same rule in the app). A sort by another date column is one
-- more line here.
create function private.file_sort_date_column(p_sort public.file_sort)
returns text
language sql
immutable
set search_path = ''
as $$
  select case split_part(p_sort::text, '_', 1)
           when 'uploadedOn' then 'uploaded_on'
           when 'capturedAt' then 'captured_at'
         end
$$;
revoke all on function private.file_sort_date_column(public.file_sort) from public;

-- Every month that holds filtered files, in the sort's order, with how many: the month is the first day of the
-- month in the caller's time zone (p_time_zone, an IANA name such as 'Europe/Madrid', so the months match the
-- headings the browser draws), null for the files without a date. The same filter, the same readable files
-- and the same security-definer reasoning as search_files (file_search.sql).
-- One grouped read of the files the filter matches, each file put in its month by a binary search of the
-- months' first moments (width_bucket) between the library's first and last date (two index lookups): the
-- time zone is applied once per month, not once per file (converting each of 100k dates cost ~300 ms).
-- A sort that is not by date has no months (22023).
create function public.file_months(
  p_filter jsonb default '{}'::jsonb,
  p_sort public.file_sort default 'uploadedOn_desc',
  p_time_zone text default 'UTC'
)
returns table (month date, files bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  date_column text := private.file_sort_date_column(coalesce(p_sort, 'uploadedOn_desc'));
  time_zone text := coalesce(nullif(p_time_zone, ''), 'UTC');
  readable text := private.readable_files_condition();
  first_month timestamp;
  last_month timestamp;
  starts timestamptz[];
begin
  if date_column is null then
    raise exception 'Sort "%" is not by date: it has no months', p_sort using errcode = '22023';
  end if;
  if readable = 'false' then
    return;
  end if;
  execute format('select date_trunc(''month'', min(f.%1$I) at time zone $1), date_trunc(''month'', max(f.%1$I) at time zone $1)
                    from public.files f', date_column)
    into first_month, last_month using time_zone;
  -- Each month's first moment in that time zone, oldest first; a file falls in the last one not after it.
  starts := array(select (first_month + make_interval(months => m)) at time zone time_zone
                    from generate_series(0, coalesce((extract(year from age(last_month, first_month)) * 12
                                                      + extract(month from age(last_month, first_month)))::integer, -1)) as m
                   order by m);
  return query execute format(
    'select (($2::timestamptz[])[b.bucket] at time zone $1)::date, b.files
       from (select width_bucket(f.%1$I, $2::timestamptz[]) as bucket, count(*) as files
               from public.files f
              where %2$s and %3$s
              group by 1) b
      order by 1 %4$s',
    date_column, readable, private.file_filter_condition(p_filter),
    case when p_sort::text like '%\_asc' then 'asc nulls last' else 'desc nulls first' end)
    using time_zone, starts;
end
$$;
revoke all on function public.file_months(jsonb, public.file_sort, text) from public, anon;
grant execute on function public.file_months(jsonb, public.file_sort, text) to authenticated, service_role;
