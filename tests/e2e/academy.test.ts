import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  appUrl,
  expectAccessible,
  launchBrowser,
  recordRealtimeFrames,
  screenshot,
  signIn,
  signedInAs,
  viewports,
} from '../helpers/browser.ts';
import { client } from '../helpers/clients.ts';
import { seedAccounts, seedAcademyCategories, seedAcademyMembers, seedAcademyVideos } from '../helpers/seed.ts';

/**
 * The Academy admin screens as an admin uses them: every route, the fetch step against the local
 * fake video provider, video and category CRUD, the members filter and private access; a member's like
 * reaching the Videos tab live; an uploader refused. Expectations come from the database at run time.
 */

let browser: Browser;
let context: BrowserContext;
let page: Page;
let service: SupabaseClient;
let realtime: ReturnType<typeof recordRealtimeFrames>;
const createdCategories: string[] = [];
const createdMembers: string[] = [];

const videoRow = (title: string) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title }) });
const categoryRow = (name: string) =>
  page.getByRole('list', { name: 'Categorías' }).getByRole('listitem').filter({ hasText: name });

async function likeTotal(videoId: string): Promise<number> {
  const { count, error } = await service
    .from('academy_likes')
    .select('video_id', { count: 'exact', head: true })
    .eq('video_id', videoId);
  expect(error).toBeNull();
  return count!;
}

async function openTab(name: 'Vídeos' | 'Categorías' | 'Usuarios') {
  await page.getByRole('navigation', { name: 'Secciones de Academy' }).getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

beforeAll(async () => {
  service = client('service_role');
  browser = await launchBrowser();
  context = await browser.newContext({ locale: 'es-ES', viewport: viewports.desktop });
  // The provider's image host is on the internet, which this browser may not reach: it answers with a
  // generated picture so the screens (and their screenshots) show thumbnails as they would in production.
  const thumbnail = await sharp({ create: { width: 480, height: 360, channels: 3, background: '#3b7fb6' } })
    .png()
    .toBuffer();
  await context.route('https://i.ytimg.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: thumbnail }),
  );
  page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  realtime = recordRealtimeFrames(page);
  await page.goto(appUrl('/login?redirect=%2Fprivate%2Facademy'));
  await signIn(page, seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
  await page.waitForURL('**/private/academy');
});

afterAll(async () => {
  if (createdCategories.length) await service.from('academy_categories').delete().in('id', createdCategories);
  if (createdMembers.length) await service.from('academy_users').delete().in('id', createdMembers);
  await browser?.close();
});

describe('Videos tab', () => {
  it('lists the videos newest first with their like totals, and looks right', async () => {
    await page.getByRole('list', { name: 'Vídeos' }).waitFor();
    const { data: videos } = await service
      .from('academy_videos')
      .select('id, title')
      .order('created_on', { ascending: false });
    const titles = await page.locator('.academy-video .academy-item-title').allTextContents();
    expect(titles).toEqual(videos!.map((video) => video.title));
    const total = await likeTotal(seedAcademyVideos.bienvenida);
    await expect
      .poll(() => videoRow('Bienvenida a los huéspedes').locator('.academy-likes').textContent())
      .toBe(`${total} me gusta`);
    expect(await page.getByRole('link', { name: 'Bienvenida a los huéspedes', exact: true }).getAttribute('href')).toBe(
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    );
    await expectAccessible(page);
    await screenshot(page, 'academy-videos-desktop');
  });

  it("shows a member's like without a reload", async () => {
    await realtime.subscribed();
    const before = await likeTotal(seedAcademyVideos.complaints);
    const lucia = client('anon');
    const signInResult = await lucia.auth.signInWithPassword({
      email: seedAcademyMembers.lucia.email,
      password: seedAcademyMembers.lucia.password,
    });
    expect(signInResult.error).toBeNull();
    const like = await lucia
      .from('academy_likes')
      .insert({ user_id: seedAcademyMembers.lucia.id, video_id: seedAcademyVideos.complaints });
    expect(like.error).toBeNull();
    try {
      await expect
        .poll(() => videoRow('Handling complaints').locator('.academy-likes').textContent())
        .toBe(`${before + 1} me gusta`);
    } finally {
      await lucia
        .from('academy_likes')
        .delete()
        .eq('user_id', seedAcademyMembers.lucia.id)
        .eq('video_id', seedAcademyVideos.complaints);
    }
    await expect
      .poll(() => videoRow('Handling complaints').locator('.academy-likes').textContent())
      .toBe(`${before} me gusta`);
  });

  it('creates a video through the fetch step, edits it and deletes it after confirmation', async () => {
    await page.getByRole('link', { name: 'Nuevo vídeo' }).click();
    // Nothing fetched yet: new-video sends the admin to the fetch route.
    await page.waitForURL('**/private/academy/fetch-youtube');

    const url = page.getByLabel('URL del vídeo');
    const fetchButton = page.getByRole('button', { name: 'Obtener información' });
    await fetchButton.click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('Todos los campos son obligatorios');
    await url.fill('esto no es una url');
    await fetchButton.click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('El campo no es una URL válida.');
    await url.fill('https://youtu.be/unknown123');
    await fetchButton.click();
    await expect
      .poll(() => page.locator('form [role="alert"]').first().textContent())
      .toBe('No se encontró ningún vídeo con esa URL.');

    await url.fill('https://www.youtube.com/watch?v=M7lc1UVf_VE&t=42');
    await fetchButton.click();
    await page.getByRole('heading', { name: 'Vídeo M7lc1UVf_VE' }).waitFor();
    expect(await page.locator('.academy-fetched-thumbnail').getAttribute('src')).toBe(
      'https://i.ytimg.com/vi/M7lc1UVf_VE/hqdefault.jpg',
    );
    await expectAccessible(page);
    await screenshot(page, 'academy-fetch-desktop');

    await page.getByRole('link', { name: 'Continuar' }).click();
    await page.waitForURL('**/private/academy/new-video');
    const title = page.getByLabel('Título');
    expect(await title.inputValue()).toBe('Vídeo M7lc1UVf_VE');
    expect(await page.getByLabel('Idioma').inputValue()).toBe('es');
    await title.fill('   ');
    await page.getByRole('button', { name: 'Crear vídeo' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('Todos los campos son obligatorios');

    const newTitle = `Vídeo e2e ${Date.now()}`;
    await title.fill(newTitle);
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('checkbox', { name: 'Recepción' }).check();
    await expectAccessible(page);
    await screenshot(page, 'academy-new-video-desktop');
    await page.getByRole('button', { name: 'Crear vídeo' }).click();
    await page.waitForURL('**/private/academy');
    await page.getByText('Vídeo creado').waitFor();
    await videoRow(newTitle).waitFor();

    const { data: created } = await service
      .from('academy_videos')
      .select('id, youtube_id, youtube_url, language, thumbnail_url, academy_video_categories(category_id)')
      .eq('title', newTitle)
      .single();
    expect(created).toMatchObject({
      youtube_id: 'M7lc1UVf_VE',
      youtube_url: 'https://www.youtube.com/watch?v=M7lc1UVf_VE',
      language: 'en',
      thumbnail_url: 'https://i.ytimg.com/vi/M7lc1UVf_VE/hqdefault.jpg',
      academy_video_categories: [{ category_id: seedAcademyCategories.recepcion }],
    });
    expect(await videoRow(newTitle).locator('.academy-chip').allTextContents()).toEqual(['Recepción']);

    // The fetched info was cleared: a second new video starts again at the fetch step.
    await page.goto(appUrl('/private/academy/new-video'));
    await page.waitForURL('**/private/academy/fetch-youtube');
    await openTab('Vídeos');

    await videoRow(newTitle)
      .getByRole('link', { name: `Editar ${newTitle}` })
      .click();
    await page.waitForURL(`**/private/academy/edit-video/${created!.id}`);
    expect(await page.getByRole('checkbox', { name: 'Recepción' }).isChecked()).toBe(true);
    const editedTitle = `${newTitle} (editado)`;
    await page.getByLabel('Título').fill(editedTitle);
    await page.getByRole('checkbox', { name: 'Recepción' }).uncheck();
    await page.getByRole('checkbox', { name: /Dirección/ }).check();
    await screenshot(page, 'academy-edit-video-desktop');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL('**/private/academy');
    await videoRow(editedTitle).waitFor();
    const { data: edited } = await service
      .from('academy_videos')
      .select('title, language, academy_video_categories(category_id)')
      .eq('id', created!.id)
      .single();
    expect(edited).toEqual({
      title: editedTitle,
      language: 'en',
      academy_video_categories: [{ category_id: seedAcademyCategories.direccion }],
    });

    await videoRow(editedTitle)
      .getByRole('button', { name: `Borrar ${editedTitle}` })
      .click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.getByText(/^¿Seguro que deseas borrar/).textContent()).toBe(
      `¿Seguro que deseas borrar el vídeo «${editedTitle}»? Esta acción no se puede deshacer.`,
    );
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    expect(await videoRow(editedTitle).count()).toBe(1);
    await videoRow(editedTitle)
      .getByRole('button', { name: `Borrar ${editedTitle}` })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Borrar' }).click();
    await page.getByText('Vídeo borrado').waitFor();
    await expect.poll(() => videoRow(editedTitle).count()).toBe(0);
    const { data: gone } = await service.from('academy_videos').select('id').eq('id', created!.id);
    expect(gone).toEqual([]);
  });

  it('tells the admin in plain words that the search is not set up, and lets them add the video by hand', async () => {
    await page.goto(appUrl('/private/academy/fetch-youtube'));
    // The fake provider answers this id as the real one answers a key it does not accept.
    await page.getByLabel('URL del vídeo').fill('https://www.youtube.com/watch?v=keyRefused');
    await page.getByRole('button', { name: 'Obtener información' }).click();
    await expect
      .poll(() => page.locator('form [role="alert"]').first().textContent())
      .toBe('La búsqueda automática de vídeos no está configurada: añade el vídeo a mano.');
    // The technical detail is there for whoever sets the project up, folded away until asked for.
    const detail = page.getByText('en Edge Functions → Secrets', { exact: false });
    expect(await detail.isVisible()).toBe(false);
    await expectAccessible(page);
    await screenshot(page, 'academy-fetch-not-configured-desktop');
    await page.setViewportSize(viewports.phone);
    await screenshot(page, 'academy-fetch-not-configured-phone');
    await page.setViewportSize(viewports.desktop);
    await page.getByText('Detalles técnicos').click();
    await detail.waitFor();
    await page
      .getByText('El proveedor de vídeo no acepta la clave configurada. Es el secreto VIDEO_PROVIDER_API_KEY', {
        exact: false,
      })
      .waitFor();
    await screenshot(page, 'academy-fetch-not-configured-detail');

    await page.getByRole('button', { name: 'Añadir a mano' }).click();
    await page.waitForURL('**/private/academy/new-video');
    // The field itself, once the new-video form has replaced the fetch step.
    const title = page.getByRole('textbox', { name: 'Título' });
    await title.waitFor();
    expect(await title.inputValue()).toBe('');
    const byHandTitle = `Vídeo a mano ${Date.now()}`;
    await title.fill(byHandTitle);
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('button', { name: 'Crear vídeo' }).click();
    await page.waitForURL('**/private/academy');
    await videoRow(byHandTitle).waitFor();
    const { data: created } = await service
      .from('academy_videos')
      .select('id, youtube_id, youtube_url, language, thumbnail_url')
      .eq('title', byHandTitle)
      .single();
    expect(created).toMatchObject({
      youtube_id: 'keyRefused',
      youtube_url: 'https://www.youtube.com/watch?v=keyRefused',
      language: 'en',
      thumbnail_url: 'https://i.ytimg.com/vi/keyRefused/hqdefault.jpg',
    });
    await service.from('academy_videos').delete().eq('id', created!.id);
  });
});

describe('Categorias tab', () => {
  it('lists categories by nameEs with a lock on private ones', async () => {
    await openTab('Categorías');
    await page.getByRole('list', { name: 'Categorías' }).waitFor();
    const { data } = await service.from('academy_categories').select('name_es, is_private').order('name_es');
    const names = await page.locator('.academy-list .academy-category-name').allTextContents();
    expect(names).toEqual(data!.map((category) => category.name_es));
    expect(await categoryRow('Dirección').getByRole('img', { name: 'Privada' }).count()).toBe(1);
    expect(await categoryRow('Recepción').getByRole('img', { name: 'Privada' }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'academy-categories-desktop');
  });

  it('creates, edits and deletes a category; deleting it removes it from its videos', async () => {
    await page.getByRole('link', { name: 'Nueva categoría' }).click();
    await page.waitForURL('**/private/academy/new-category');
    await page.getByRole('button', { name: 'Crear categoría' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('Todos los campos son obligatorios');

    const name = `Formación e2e ${Date.now()}`;
    await page.getByLabel('Nombre (español)').fill(name);
    await page.getByLabel('Nombre (inglés)').fill('Training e2e');
    await page.getByRole('checkbox', { name: /Categoría privada/ }).check();
    await expectAccessible(page);
    await screenshot(page, 'academy-new-category-desktop');
    await page.getByRole('button', { name: 'Crear categoría' }).click();
    await page.waitForURL('**/private/academy/categories');
    await categoryRow(name).waitFor();
    expect(await categoryRow(name).getByRole('img', { name: 'Privada' }).count()).toBe(1);
    const { data: category } = await service
      .from('academy_categories')
      .select('id, name_en, is_private')
      .eq('name_es', name)
      .single();
    createdCategories.push(category!.id);
    expect(category).toMatchObject({ name_en: 'Training e2e', is_private: true });

    await categoryRow(name)
      .getByRole('link', { name: `Editar ${name}` })
      .click();
    await page.waitForURL(`**/private/academy/edit-category/${category!.id}`);
    const renamed = `${name} pública`;
    await page.getByLabel('Nombre (español)').fill(renamed);
    await page.getByRole('checkbox', { name: /Categoría privada/ }).uncheck();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL('**/private/academy/categories');
    await categoryRow(renamed).waitFor();
    expect(await categoryRow(renamed).getByRole('img', { name: 'Privada' }).count()).toBe(0);

    const link = await service
      .from('academy_video_categories')
      .insert({ video_id: seedAcademyVideos.complaints, category_id: category!.id });
    expect(link.error).toBeNull();
    await categoryRow(renamed)
      .getByRole('button', { name: `Borrar ${renamed}` })
      .click();
    expect(
      await page
        .getByRole('alertdialog')
        .getByText(/^¿Seguro que deseas borrar/)
        .textContent(),
    ).toBe(
      `¿Seguro que deseas borrar la categoría «${renamed}» (se quitará de sus vídeos)? Esta acción no se puede deshacer.`,
    );
    await page.getByRole('alertdialog').getByRole('button', { name: 'Borrar' }).click();
    await page.getByText('Categoría borrada').waitFor();
    await expect.poll(() => categoryRow(renamed).count()).toBe(0);
    const { data: links } = await service
      .from('academy_video_categories')
      .select('video_id')
      .eq('category_id', category!.id);
    expect(links).toEqual([]);
  });
});

describe('Usuarios tab', () => {
  it('filters members on the server, accent-insensitively', async () => {
    await openTab('Usuarios');
    const list = page.getByRole('list', { name: 'Usuarios' });
    await list.waitFor();
    const { count } = await service.from('academy_users').select('id', { count: 'exact', head: true });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(Math.min(count!, 100));

    const filter = page.getByPlaceholder('Filtrar (nombre, correo, etc)');
    await filter.fill('lucia SEVILLA');
    await expect.poll(() => list.locator('.academy-item-title').allTextContents()).toEqual(['Lucía Fernández']);
    expect(await list.getByRole('button', { name: 'Borrar Lucía Fernández' }).isEnabled()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'academy-users-desktop');

    await filter.fill('nadie-se-llama-asi');
    await page.getByText('Ningún usuario coincide con el filtro').waitFor();
  });

  it('deletes a member after the confirmation, with their grants and likes', async () => {
    const name = `Borrable ${Date.now()}`;
    const { data: member, error } = await service
      .from('academy_users')
      .insert({ name, email: `borrable-${Date.now()}@hotel.example` })
      .select('id')
      .single();
    expect(error).toBeNull();
    await service
      .from('academy_user_categories')
      .insert({ user_id: member!.id, category_id: seedAcademyCategories.direccion });
    await openTab('Usuarios');
    await page.getByPlaceholder('Filtrar (nombre, correo, etc)').fill(name);
    const list = page.getByRole('list', { name: 'Usuarios' });
    await expect.poll(() => list.locator('.academy-item-title').allTextContents()).toEqual([name]);
    await list.getByRole('button', { name: `Borrar ${name}` }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.textContent()).toContain(`¿Seguro que deseas borrar a ${name}`);
    await dialog.getByRole('button', { name: 'Borrar' }).click();
    await page.getByText('Usuario borrado').waitFor();
    await page.getByText('Ningún usuario coincide con el filtro').waitFor();
    expect((await service.from('academy_users').select('id').eq('id', member!.id)).data).toEqual([]);
    expect((await service.from('academy_user_categories').select('user_id').eq('user_id', member!.id)).data).toEqual(
      [],
    );
    await page.getByPlaceholder('Filtrar (nombre, correo, etc)').fill('');
  });

  it("shows a member's details and grants a private category", async () => {
    const name = `Marta Núñez ${Date.now()}`;
    const { data: member, error } = await service
      .from('academy_users')
      .insert({ name, email: 'marta@hotel.example', company: 'Hotel Mar', city: 'Cádiz', country: 'España' })
      .select('id, created_on')
      .single();
    expect(error).toBeNull();
    createdMembers.push(member!.id);

    await page.getByPlaceholder('Filtrar (nombre, correo, etc)').fill('marta nunez cadiz');
    const list = page.getByRole('list', { name: 'Usuarios' });
    await expect.poll(() => list.locator('.academy-item-title').allTextContents()).toEqual([name]);
    await list.getByRole('link', { name: `Editar ${name}` }).click();
    await page.waitForURL(`**/private/academy/edit-user/${member!.id}`);

    await page.locator('.academy-facts').waitFor();
    const facts = Object.fromEntries(
      await page
        .locator('.academy-facts > div')
        .evaluateAll((rows) =>
          rows.map((row) => [row.querySelector('dt')!.textContent, row.querySelector('dd')!.textContent]),
        ),
    );
    expect(facts).toMatchObject({
      Nombre: name,
      'Correo electrónico': 'marta@hotel.example',
      Empresa: 'Hotel Mar',
      Ciudad: 'Cádiz',
      País: 'España',
    });
    expect(facts['Fecha de registro']).toMatch(/^\d{2}\/\d{2}\/\d{4} a las \d{2}:\d{2}:\d{2}$/);

    // Only private categories need a grant.
    const { data: privateCategories } = await service
      .from('academy_categories')
      .select('name_es')
      .eq('is_private', true);
    const boxes = page.getByRole('group', { name: 'Acceso a categorías privadas' }).getByRole('checkbox');
    expect(await boxes.count()).toBe(privateCategories!.length);
    await page.getByRole('checkbox', { name: /Dirección/ }).check();
    await expectAccessible(page);
    await screenshot(page, 'academy-edit-user-desktop');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Acceso guardado').waitFor();
    await page.waitForURL('**/private/academy/users');
    const { data: grants } = await service
      .from('academy_user_categories')
      .select('category_id')
      .eq('user_id', member!.id);
    expect(grants).toEqual([{ category_id: seedAcademyCategories.direccion }]);
  });
});

describe('on a phone', () => {
  it.each([
    ['videos', '/private/academy', 'Vídeos'],
    ['fetch', '/private/academy/fetch-youtube', 'Nuevo vídeo'],
    ['categories', '/private/academy/categories', 'Categorías'],
    ['users', '/private/academy/users', 'Usuarios'],
    ['edit-user', `/private/academy/edit-user/${seedAcademyMembers.lucia.id}`, 'Lucía Fernández'],
    ['edit-video', `/private/academy/edit-video/${seedAcademyVideos.bienvenida}`, 'Editar vídeo'],
  ])('%s fits 390 px and is accessible', async (name, path, heading) => {
    await page.setViewportSize(viewports.phone);
    try {
      await page.goto(appUrl(path));
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page
        .locator('[role="status"] .skeleton')
        .first()
        .waitFor({ state: 'detached' })
        .catch(() => {});
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectAccessible(page);
      await screenshot(page, `academy-${name}-phone`);
    } finally {
      await page.setViewportSize(viewports.desktop);
    }
  });
});

describe('as UPLOADER', () => {
  it('is refused every Academy route and sees no Academy menu entry', async () => {
    const uploader = await signedInAs(browser, 'UPLOADER', { landing: '/private/academy/categories' });
    try {
      await uploader.page.getByText('No tienes permiso para ver esta sección.').waitFor();
      expect(await uploader.page.getByRole('link', { name: 'Academy' }).count()).toBe(0);
      expect(await uploader.page.getByRole('list', { name: 'Categorías' }).count()).toBe(0);
      await uploader.page.goto(appUrl('/private/academy/fetch-youtube'));
      await uploader.page.getByText('No tienes permiso para ver esta sección.').waitFor();
      expect(await uploader.page.getByLabel('URL del vídeo').count()).toBe(0);
    } finally {
      await uploader.context.close();
    }
  });
});
