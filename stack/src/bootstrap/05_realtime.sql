-- Realtime payloads carry every column of a row, generated ones included (files.is_image): Postgres 18
-- publishes stored generated columns only when the publication asks for them.
alter publication supabase_realtime set (publish_generated_columns = stored);
