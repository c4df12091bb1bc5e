-- Supabase compatibility layer: Broadcast from the database. realtime.send() and realtime.broadcast_changes()
-- exactly as Realtime's tenant migrations define them today (send: 20260605120000, which adds the message id to
-- the payload; broadcast_changes: 20240919163303). A message is a row of realtime.messages; the Realtime
-- service reads committed inserts from the publication below (as Realtime's ReplicationConnection does) and
-- delivers each to the channels of its topic: private topics only to channels that RLS let join.
create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
as $$
declare
  generated_id uuid;
  final_payload jsonb;
begin
  begin
    generated_id := gen_random_uuid();

    -- Check if payload has an 'id' key, if not, add the generated UUID
    if payload ? 'id' then
      final_payload := payload;
    else
      final_payload := jsonb_set(payload, '{id}', to_jsonb(generated_id));
    end if;

    -- Set the topic configuration
    execute format('SET LOCAL realtime.topic TO %L', topic);

    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (generated_id, final_payload, event, topic, private, 'broadcast');
  exception
    when others then
      raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$
language plpgsql;

create or replace function realtime.broadcast_changes(
  topic_name text, event_name text, operation text, table_name text, table_schema text, new record, old record,
  level text default 'ROW'
)
returns void
as $$
declare
  -- Declare a variable to hold the JSONB representation of the row
  row_data jsonb := '{}'::jsonb;
begin
  if level = 'STATEMENT' then
    raise exception 'function can only be triggered for each row, not for each statement';
  end if;
  -- Check the operation type and handle accordingly
  if operation = 'INSERT' or operation = 'UPDATE' or operation = 'DELETE' then
    row_data := jsonb_build_object('old_record', old, 'record', new, 'operation', operation, 'table', table_name, 'schema', table_schema);
    perform realtime.send(row_data, event_name, topic_name);
  else
    raise exception 'Unexpected operation type: %', operation;
  end if;
exception
  when others then
    raise exception 'Failed to process the row: %', sqlerrm;
end;
$$
language plpgsql;

alter function realtime.send(jsonb, text, text, boolean) owner to supabase_realtime_admin;
alter function realtime.broadcast_changes(text, text, text, text, text, record, record, text)
  owner to supabase_realtime_admin;

-- Messages default to private, as in Realtime's table since 20240919163303.
alter table realtime.messages alter column private set default true;

-- Only inserts are messages; Realtime's own publication publishes everything, and reads only inserts.
create publication supabase_realtime_messages_publication for table realtime.messages with (publish = 'insert');
