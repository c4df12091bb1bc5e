-- Names are single-line labels shown in cards, menus, ZIP entries and link previews: a control character
-- (a bell, an escape, a newline pasted from a spreadsheet) in one breaks layouts and downloads and can spoof
-- what a name looks like. Descriptions keep line breaks and tabs. NUL cannot be stored in text at all.
alter table public.files
  add constraint files_names_printable check (
    name_es !~ '[[:cntrl:]]' and name_en !~ '[[:cntrl:]]' and original_file_name !~ '[[:cntrl:]]'
  );

alter table public.tag_categories
  add constraint tag_categories_names_printable check (name_es !~ '[[:cntrl:]]' and name_en !~ '[[:cntrl:]]');

alter table public.tags
  add constraint tags_names_printable check (name_es !~ '[[:cntrl:]]' and name_en !~ '[[:cntrl:]]');

alter table public.collections
  add constraint collections_name_printable check (name !~ '[[:cntrl:]]');

alter table public.academy_categories
  add constraint academy_categories_names_printable check (name_es !~ '[[:cntrl:]]' and name_en !~ '[[:cntrl:]]');
