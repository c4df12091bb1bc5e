import { z } from 'zod';
import type { FileDetail } from '../api/get-file-detail.ts';
import { RIGHTS_LABELS, rightsShape, rightsValuesOf } from './rights-values.ts';

const REQUIRED = 'El campo es obligatorio.';
const tooLong = (max: number) => `El campo no debe ser mayor a ${max} caracteres.`;

export const fileFormSchema = z.object({
  name_es: z.string().trim().min(1, REQUIRED).max(500, tooLong(500)),
  /** Empty while untranslated: saved as the Spanish title, which is how the database marks 'Sin traducir'. */
  name_en: z.string().trim().max(500, tooLong(500)),
  description_es: z.string().max(10000, tooLong(10000)),
  description_en: z.string().max(10000, tooLong(10000)),
  b2b: z.boolean(),
  operations: z.boolean(),
  tagIds: z.array(z.string()),
  collectionIds: z.array(z.string()),
  ...rightsShape,
});
export type FileFormValues = z.infer<typeof fileFormSchema>;

/**
 * A file's English title is the Spanish one until someone translates it (uploads write both from the file
 * name, and the database requires one). The form shows it empty, with the Spanish title as its placeholder,
 * so that 'Falta la traducción' and the 'Sin traducir' filter (name_en = name_es) agree with what is shown.
 */
export const englishTitleOf = (file: Pick<FileDetail, 'name_es' | 'name_en'>) =>
  file.name_en.trim() === file.name_es.trim() ? '' : file.name_en;

/** What is saved as the English title: the Spanish one while the field is left empty. */
export const savedEnglishTitle = (values: Pick<FileFormValues, 'name_es' | 'name_en'>) =>
  values.name_en.trim() || values.name_es.trim();

export const formValuesOf = (file: FileDetail): FileFormValues => ({
  name_es: file.name_es,
  name_en: englishTitleOf(file),
  description_es: file.description_es,
  description_en: file.description_en,
  b2b: file.b2b,
  operations: file.operations,
  tagIds: file.file_tags.map((link) => link.tag_id),
  collectionIds: file.collection_files.map((link) => link.collection_id),
  ...rightsValuesOf(file),
});

/** The version a save is made against: the row's updated_at and the tags and collections the form read. */
export interface FileVersion {
  updatedAt: string;
  tagIds: string[];
  collectionIds: string[];
}

export const versionOf = (file: FileDetail): FileVersion => ({
  updatedAt: file.updated_at,
  tagIds: file.file_tags.map((link) => link.tag_id),
  collectionIds: file.collection_files.map((link) => link.collection_id),
});

export const FIELD_LABELS: Record<keyof FileFormValues, string> = {
  name_es: 'Título',
  name_en: 'Título (inglés)',
  description_es: 'Descripción',
  description_en: 'Descripción (inglés)',
  b2b: 'B2B',
  operations: 'Operaciones',
  tagIds: 'Etiquetas',
  collectionIds: 'Colecciones',
  ...RIGHTS_LABELS,
};

const same = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) ? [...a].sort().join() === [...b].sort().join() : a === b;

/** The fields another person changed between the version the form read and theirs. */
export function changedFields(base: FileFormValues, theirs: FileFormValues): Array<keyof FileFormValues> {
  return (Object.keys(FIELD_LABELS) as Array<keyof FileFormValues>).filter((key) => !same(base[key], theirs[key]));
}
