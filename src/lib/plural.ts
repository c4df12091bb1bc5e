/** The word for a count: the singular for exactly one, else the plural. */
export function pluralWord(count: number, singular: string, pluralForm: string): string {
  return count === 1 ? singular : pluralForm;
}

/** '1 archivo filtrado', '2 archivos filtrados': Spanish counts with their singular. */
export function plural(count: number, singular: string, pluralForm: string): string {
  return `${count.toLocaleString('es-ES')} ${pluralWord(count, singular, pluralForm)}`;
}
