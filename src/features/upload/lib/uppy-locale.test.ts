import { describe, expect, it } from 'vitest';
import { uploadingTitle } from './uppy-locale.ts';

const file = (uploadComplete: boolean, error: string | null = null) => ({ progress: { uploadComplete }, error });

describe('uploadingTitle', () => {
  it('counts the file on its way while anything is being sent', () => {
    expect(uploadingTitle([file(true), file(false), file(false)])).toBe('Subiendo 2 de 3');
    expect(uploadingTitle([file(false, 'x'), file(false)])).toBe('Subiendo 1 de 2');
  });

  it("never says 'Subiendo' once nothing is being sent", () => {
    expect(uploadingTitle([file(false, 'No hay conexión')])).toBe('No se pudo subir el archivo');
    expect(uploadingTitle([file(false, 'x'), file(false, 'y')])).toBe('No se pudo subir ningún archivo (2)');
    expect(uploadingTitle([file(true), file(false, 'x'), file(true, 'no registrado')])).toBe(
      '1 de 3 subidos, 2 con error',
    );
  });
});
