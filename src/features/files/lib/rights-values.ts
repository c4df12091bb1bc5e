import { z } from 'zod';
import type { FileDetail } from '../api/get-file-detail.ts';
import type { FileLicense, FileRelease } from './rights.ts';

const tooLong = (max: number) => `El campo no debe ser mayor a ${max} caracteres.`;
// The database refuses control characters in one-line texts (a pasted tab or line break).
const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max, tooLong(max))
    .regex(/^[^\p{Cc}]*$/u, 'El campo no admite saltos de línea ni tabuladores.');

const LICENSES = ['own', 'author_ceded', 'stock', 'agency', 'unknown'] as const satisfies readonly FileLicense[];
const RELEASES = ['yes', 'no', 'not_applicable'] as const satisfies readonly FileRelease[];

/** The 'Derechos' section's fields; '' in a choice or the date is "not stated" (null in the database). */
export const rightsShape = {
  rights_creator: oneLine(300),
  rights_credit: oneLine(300),
  rights_copyright: oneLine(500),
  rights_license: z.enum(['', ...LICENSES]),
  rights_usage_terms: z.string().trim().max(2000, tooLong(2000)),
  rights_expire_on: z.union([z.literal(''), z.iso.date('Escribe una fecha válida.')]),
  rights_release: z.enum(['', ...RELEASES]),
};
export type RightsValues = { [Key in keyof typeof rightsShape]: z.infer<(typeof rightsShape)[Key]> };
export type RightsKey = keyof RightsValues;

export const RIGHTS_LABELS: Record<RightsKey, string> = {
  rights_creator: 'Autor',
  rights_credit: 'Crédito',
  rights_copyright: 'Copyright',
  rights_license: 'Licencia',
  rights_usage_terms: 'Condiciones de uso',
  rights_expire_on: 'Caducan el',
  rights_release: 'Autorización de modelo o propiedad',
};

/** The texts the file's embedded IPTC/XMP may fill, with where each comes from in file_metadata. */
const PREFILL_SOURCES = {
  rights_creator: 'creator',
  rights_credit: 'credit',
  rights_copyright: 'copyright',
  rights_usage_terms: 'usage_terms',
} as const;
type PrefillKey = keyof typeof PREFILL_SOURCES;

/** What the saved file says, each field as the form holds it. */
export const savedRightsOf = (file: FileDetail): RightsValues => ({
  rights_creator: file.rights_creator,
  rights_credit: file.rights_credit,
  rights_copyright: file.rights_copyright,
  rights_license: file.rights_license ?? '',
  rights_usage_terms: file.rights_usage_terms,
  rights_expire_on: file.rights_expire_on ?? '',
  rights_release: file.rights_release ?? '',
});

/**
 * The fields the form fills from the file's own metadata: those still empty on the file for which the
 * embedded metadata has a text. They are only a proposal; Guardar is what stores them.
 */
export function prefilledRights(file: FileDetail): Partial<Record<PrefillKey, string>> {
  const metadata = file.file_metadata;
  if (!metadata) return {};
  const filled: Partial<Record<PrefillKey, string>> = {};
  for (const [field, source] of Object.entries(PREFILL_SOURCES) as Array<
    [PrefillKey, (typeof PREFILL_SOURCES)[PrefillKey]]
  >) {
    const embedded = metadata[source]?.trim();
    if (file[field].trim() === '' && embedded) filled[field] = embedded;
  }
  return filled;
}

/** The form's starting rights: the saved ones, empty texts proposed from the embedded metadata. */
export const rightsValuesOf = (file: FileDetail): RightsValues => ({
  ...savedRightsOf(file),
  ...prefilledRights(file),
});

/** The columns to write, or null when the checked values say what the file already says. */
export function rightsUpdate(file: FileDetail, values: RightsValues) {
  const saved = savedRightsOf(file);
  const changed = (Object.keys(RIGHTS_LABELS) as RightsKey[]).some((key) => saved[key] !== values[key]);
  if (!changed) return null;
  return {
    rights_creator: values.rights_creator,
    rights_credit: values.rights_credit,
    rights_copyright: values.rights_copyright,
    rights_license: values.rights_license || null,
    rights_usage_terms: values.rights_usage_terms,
    rights_expire_on: values.rights_expire_on || null,
    rights_release: values.rights_release || null,
  };
}
export type RightsUpdate = NonNullable<ReturnType<typeof rightsUpdate>>;
