-- Analysts --------------------------------------------------------------------------------------------------
-- What post-processing read from each file's embedded EXIF/IPTC/XMP (public.file_metadata), for reports on
-- cameras, credits, capture dates and unreadable blocks. Like the other analytics views it runs with its
-- owner's rights, past the staff-only policy on file_metadata, so it leaves out what makes that table
-- staff-only: the GPS position appears only as whether the file has one, never as coordinates. The file type
-- is its extension, named as in files_by_month and untagged_files. The caption (long free text, which a new
-- upload already takes as its Spanish description) is left out.
create view analytics.embedded_metadata as
select m.file_id, f.published, f.extension as file_type, f.captured_at,
       m.camera_make, m.camera_model, m.lens, m.orientation,
       m.creator, m.credit, m.copyright, m.usage_terms, m.headline, m.keywords,
       (m.gps_latitude is not null and m.gps_longitude is not null) as has_gps,
       m.read_error, m.read_at
from public.file_metadata m
join public.files f on f.id = m.file_id;
comment on view analytics.embedded_metadata is
  'One row per file whose embedded metadata (EXIF, IPTC, XMP) post-processing read: capture date, camera, lens, orientation, credits, usage terms, headline, keywords, whether it carries a GPS position (never the position itself), why a block could not be read and when it was read.';

revoke all on analytics.embedded_metadata from public, anon, authenticated, service_role;
grant select on analytics.embedded_metadata to analyst;
