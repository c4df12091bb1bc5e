-- Demo data for Mediateca (runs once, as `postgres`, on the first start of a database).
-- Accounts (e-mail / password):
--   ADMIN       admin@mediateca.local       / mediateca-admin
--   UPLOADER    uploader@mediateca.local    / mediateca-uploader
--   FRONT       front@mediateca.local       / mediateca-front        (may not sign in to this site)
--   OPERATIONS  operations@mediateca.local  / mediateca-operations   (may not sign in to this site)

insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
  raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new,
  email_change, phone_change, phone_change_token, email_change_token_current, reauthentication_token
)
select '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
       extensions.crypt(u.password, extensions.gen_salt('bf', 10)), now(),
       '{"provider":"email","providers":["email"]}', '{}', now(), now(), '', '', '', '', '', '', '', ''
from (values
  ('a0000000-0000-4000-8000-000000000001'::uuid, 'admin@mediateca.local', 'mediateca-admin'),
  ('a0000000-0000-4000-8000-000000000002'::uuid, 'uploader@mediateca.local', 'mediateca-uploader'),
  ('a0000000-0000-4000-8000-000000000003'::uuid, 'front@mediateca.local', 'mediateca-front'),
  ('a0000000-0000-4000-8000-000000000004'::uuid, 'operations@mediateca.local', 'mediateca-operations')
) as u (id, email, password);

insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
select u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', false, 'phone_verified', false),
       'email', now(), now()
from auth.users u
where u.email like '%@mediateca.local';

insert into public.staff (user_id, email, role)
select u.id, u.email,
       case split_part(u.email, '@', 1)
         when 'admin' then 'ADMIN'
         when 'uploader' then 'UPLOADER'
         when 'front' then 'FRONT'
         else 'OPERATIONS'
       end::public.staff_role
from auth.users u
where u.email like '%@mediateca.local';

insert into public.tag_categories (id, name_es, name_en, hide_b2c, hide_b2b) values
  ('c0000000-0000-4000-8000-000000000001', 'Espacios', 'Spaces', false, false),
  ('c0000000-0000-4000-8000-000000000002', 'Temporada', 'Season', false, false),
  ('c0000000-0000-4000-8000-000000000003', 'Uso interno', 'Internal use', true, false);

insert into public.tags (id, category_id, name_es, name_en) values
  ('d0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Piscina', 'Pool'),
  ('d0000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'Habitación', 'Room'),
  ('d0000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', 'Restaurante', 'Restaurant'),
  ('d0000000-0000-4000-8000-000000000004', 'c0000000-0000-4000-8000-000000000001', 'Spa', 'Spa'),
  ('d0000000-0000-4000-8000-000000000005', 'c0000000-0000-4000-8000-000000000002', 'Verano', 'Summer'),
  ('d0000000-0000-4000-8000-000000000006', 'c0000000-0000-4000-8000-000000000002', 'Invierno', 'Winter'),
  ('d0000000-0000-4000-8000-000000000007', 'c0000000-0000-4000-8000-000000000003', 'Borrador', 'Draft');

insert into public.files (
  id, file_name, object_path, original_file_name, name_es, name_en, description_es, description_en, size,
  uploaded_on, uploader_id, uploader_email, extension, processing, published, b2b, operations
) values
  ('f0000000-0000-4000-8000-000000000001', 'u0001.jpg', 'f0000000-0000-4000-8000-000000000001/u0001.jpg',
   'piscina-principal.jpg', 'Piscina principal al atardecer', 'Main pool at sunset',
   'Vista de la piscina principal con tumbonas.', 'View of the main pool with sun loungers.', 2480133,
   now() - interval '9 days', 'a0000000-0000-4000-8000-000000000001', 'admin@mediateca.local', 'jpg', false, true, true, false),
  ('f0000000-0000-4000-8000-000000000002', 'u0002.jpg', 'f0000000-0000-4000-8000-000000000002/u0002.jpg',
   'suite-junior.jpg', 'Suite junior con vistas al mar', 'Junior suite with sea views',
   'Habitación renovada en 2026.', 'Room refurbished in 2026.', 3150220,
   now() - interval '8 days', 'a0000000-0000-4000-8000-000000000002', 'uploader@mediateca.local', 'jpg', false, true, true, false),
  ('f0000000-0000-4000-8000-000000000003', 'u0003.png', 'f0000000-0000-4000-8000-000000000003/u0003.png',
   'menu-degustacion.png', 'Menú degustación de otoño', 'Autumn tasting menu',
   'Platos del restaurante gastronómico.', 'Dishes of the signature restaurant.', 845021,
   now() - interval '6 days', 'a0000000-0000-4000-8000-000000000002', 'uploader@mediateca.local', 'png', false, false, true, false),
  ('f0000000-0000-4000-8000-000000000004', 'u0004.pdf', 'f0000000-0000-4000-8000-000000000004/u0004.pdf',
   'tarifas-invierno-2027.pdf', 'Tarifas de invierno 2027', 'Winter rates 2027',
   'Documento de tarifas para agencias.', 'Rate sheet for agencies.', 120334,
   now() - interval '5 days', 'a0000000-0000-4000-8000-000000000001', 'admin@mediateca.local', 'pdf', false, true, true, true),
  ('f0000000-0000-4000-8000-000000000005', 'u0005.jpg', 'f0000000-0000-4000-8000-000000000005/u0005.jpg',
   'circuito-spa.jpg', 'Circuito de aguas del spa', 'Spa water circuit',
   'Zona de hidroterapia.', 'Hydrotherapy area.', 1902231,
   now() - interval '3 days', 'a0000000-0000-4000-8000-000000000001', 'admin@mediateca.local', 'jpg', false, false, true, false),
  ('f0000000-0000-4000-8000-000000000006', 'u0006.docx', 'f0000000-0000-4000-8000-000000000006/u0006.docx',
   'cancion-del-verano.docx', 'Canción del verano (letra)', 'Summer song (lyrics)',
   'Letra para el vídeo promocional.', 'Lyrics for the promotional video.', 30211,
   now() - interval '1 day', 'a0000000-0000-4000-8000-000000000002', 'uploader@mediateca.local', 'docx', false, false, true, false);

insert into public.file_tags (file_id, tag_id) values
  ('f0000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000001'),
  ('f0000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000005'),
  ('f0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000002'),
  ('f0000000-0000-4000-8000-000000000003', 'd0000000-0000-4000-8000-000000000003'),
  ('f0000000-0000-4000-8000-000000000004', 'd0000000-0000-4000-8000-000000000006'),
  ('f0000000-0000-4000-8000-000000000005', 'd0000000-0000-4000-8000-000000000004'),
  ('f0000000-0000-4000-8000-000000000006', 'd0000000-0000-4000-8000-000000000005'),
  ('f0000000-0000-4000-8000-000000000006', 'd0000000-0000-4000-8000-000000000007');

insert into public.collections (id, name, is_public) values
  ('e0000000-0000-4000-8000-000000000001', 'Campaña de verano 2026', true),
  ('e0000000-0000-4000-8000-000000000002', 'Material para agencias', false);

insert into public.collection_files (collection_id, file_id) values
  ('e0000000-0000-4000-8000-000000000001', 'f0000000-0000-4000-8000-000000000001'),
  ('e0000000-0000-4000-8000-000000000001', 'f0000000-0000-4000-8000-000000000002'),
  ('e0000000-0000-4000-8000-000000000001', 'f0000000-0000-4000-8000-000000000006'),
  ('e0000000-0000-4000-8000-000000000002', 'f0000000-0000-4000-8000-000000000004');

insert into public.academy_categories (id, name_es, name_en, is_private) values
  ('b0000000-0000-4000-8000-000000000001', 'Atención al cliente', 'Customer service', false),
  ('b0000000-0000-4000-8000-000000000002', 'Recepción', 'Front desk', false),
  ('b0000000-0000-4000-8000-000000000003', 'Dirección', 'Management', true);

insert into public.academy_videos (id, youtube_id, youtube_url, language, title, thumbnail_url, created_on) values
  ('b1000000-0000-4000-8000-000000000001', 'dQw4w9WgXcQ', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'es',
   'Bienvenida a los huéspedes', 'https://i.ytimg.com/vi/dQw4w9WgXcQ/sddefault.jpg', now() - interval '20 days'),
  ('b1000000-0000-4000-8000-000000000002', 'M7lc1UVf-VE', 'https://www.youtube.com/watch?v=M7lc1UVf-VE', 'en',
   'Handling complaints', 'https://i.ytimg.com/vi/M7lc1UVf-VE/sddefault.jpg', now() - interval '10 days'),
  ('b1000000-0000-4000-8000-000000000003', 'ScMzIvxBSi4', 'https://www.youtube.com/watch?v=ScMzIvxBSi4', 'es',
   'Indicadores de ocupación', 'https://i.ytimg.com/vi/ScMzIvxBSi4/hqdefault.jpg', now() - interval '2 days');

insert into public.academy_video_categories (video_id, category_id) values
  ('b1000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000001'),
  ('b1000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000002'),
  ('b1000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000001'),
  ('b1000000-0000-4000-8000-000000000003', 'b0000000-0000-4000-8000-000000000003');

insert into public.academy_users (id, name, email, company, city, country, created_on) values
  ('b2000000-0000-4000-8000-000000000001', 'Lucía Fernández', 'lucia@agencia.example', 'Viajes Sol', 'Sevilla', 'España', now() - interval '30 days'),
  ('b2000000-0000-4000-8000-000000000002', 'Tom Baker', 'tom@travel.example', 'Blue Travel', 'London', 'United Kingdom', now() - interval '4 days');

insert into public.academy_user_categories (user_id, category_id) values
  ('b2000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000003');

insert into public.academy_likes (user_id, video_id) values
  ('b2000000-0000-4000-8000-000000000001', 'b1000000-0000-4000-8000-000000000001'),
  ('b2000000-0000-4000-8000-000000000002', 'b1000000-0000-4000-8000-000000000001'),
  ('b2000000-0000-4000-8000-000000000002', 'b1000000-0000-4000-8000-000000000002');

update public.operations_popup
   set title = 'Aviso de operaciones',
       message = 'Mantenimiento de la piscina el lunes de 8:00 a 12:00.<br>Gracias por vuestra colaboración.',
       active = false
 where id = 1;

-- Two academy members who sign in to the academy app (not to this site): Lucía has been granted the private
-- category Dirección, Tom has not.
--   MEMBER      lucia@agencia.example       / academy-lucia
--   MEMBER      tom@travel.example          / academy-tom
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
  raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new,
  email_change, phone_change, phone_change_token, email_change_token_current, reauthentication_token
)
select '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
       extensions.crypt(u.password, extensions.gen_salt('bf', 10)), now(),
       '{"provider":"email","providers":["email"]}', '{}', now(), now(), '', '', '', '', '', '', '', ''
from (values
  ('a0000000-0000-4000-8000-000000000101'::uuid, 'lucia@agencia.example', 'academy-lucia'),
  ('a0000000-0000-4000-8000-000000000102'::uuid, 'tom@travel.example', 'academy-tom')
) as u (id, email, password);

insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
select u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', false, 'phone_verified', false),
       'email', now(), now()
from auth.users u
where u.id in ('a0000000-0000-4000-8000-000000000101', 'a0000000-0000-4000-8000-000000000102');

update public.academy_users set auth_user_id = 'a0000000-0000-4000-8000-000000000101'
 where id = 'b2000000-0000-4000-8000-000000000001';
update public.academy_users set auth_user_id = 'a0000000-0000-4000-8000-000000000102'
 where id = 'b2000000-0000-4000-8000-000000000002';
