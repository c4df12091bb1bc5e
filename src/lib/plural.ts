/** '1 archivo filtrado', '2 archivos filtrados': Spanish counts with their singular. */
export function plural(count: number, singular: string, pluralForm: string): string {
  return `${count.toLocaleString('es-ES')} ${count === 1 ? singular : pluralForm}`;
}
