import { describe, expect, it } from 'vitest';
import { copyInList, finishedBatch, isListed, listHeading, phaseText, type UploadItem } from './upload-items.ts';

const file = new File(['abc'], 'foto.jpg', { lastModified: 1 });
const item = (phase: UploadItem['phase'], extra: Partial<UploadItem> = {}): UploadItem => ({
  key: crypto.randomUUID(),
  name: 'foto.jpg',
  size: 3,
  file,
  phase,
  progress: 0,
  ...extra,
});

describe('the upload list', () => {
  it('is over only when nothing is on its way or waiting for a decision, and something went up', () => {
    expect(finishedBatch([item('done'), item('uploading')])).toBeNull();
    expect(finishedBatch([item('done'), item('duplicate')])).toBeNull();
    expect(finishedBatch([item('done'), item('paused')])).toBeNull();
    expect(finishedBatch([item('error')])).toBeNull();
    const done = item('done');
    expect(finishedBatch([done, item('error')])).toEqual([done]);
  });

  it('counts the whole list in its heading, and says how the batch ended', () => {
    expect(listHeading([item('done'), item('uploading'), item('queued')])).toBe('Subiendo 2 de 3');
    expect(listHeading([item('checking')])).toBe('Subiendo 1 de 1');
    expect(listHeading([item('done'), item('duplicate')])).toBe('Un archivo espera tu decisión');
    expect(listHeading([item('duplicate'), item('duplicate')])).toBe('2 archivos esperan tu decisión');
    expect(listHeading([item('error')])).toBe('No se pudo subir el archivo');
    expect(listHeading([item('error'), item('error')])).toBe('No se pudo subir ningún archivo (2)');
    expect(listHeading([item('done'), item('error')])).toBe('1 de 2 subidos, 1 con error');
    expect(listHeading([item('done'), item('done')])).toBe('2 de 2 subidos');
  });

  it('says where each file stands, in Spanish', () => {
    expect(phaseText(item('checking'))).toBe('Comprobando si ya existe…');
    expect(phaseText(item('checking', { progress: 0.5 }))).toBe('Comprobando si ya existe… 50 %');
    expect(phaseText(item('uploading', { progress: 0.257 }))).toBe('Subiendo… 25 %');
    expect(phaseText(item('paused', { progress: 0.4 }))).toBe('En pausa (40 %)');
    expect(phaseText(item('error', { error: 'No tienes permiso para subir este archivo.' }))).toBe(
      'No tienes permiso para subir este archivo.',
    );
  });

  it('knows a file offered again while listed, and a copy within the list', () => {
    expect(isListed([item('uploading')], file)).toBe(true);
    expect(isListed([item('done')], file)).toBe(false);
    const first = item('queued', { checksum: 'a'.repeat(64), name: 'uno.jpg' });
    const second = item('checking', { checksum: 'a'.repeat(64) });
    expect(copyInList([first, second], second.key, 'a'.repeat(64))).toEqual({
      fileId: null,
      name: 'uno.jpg',
      inThisList: true,
    });
    expect(copyInList([first, second], second.key, 'b'.repeat(64))).toBeNull();
  });
});
