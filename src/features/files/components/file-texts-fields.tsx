import { TextField } from '../../../components/ui/form-fields.tsx';
import type { SchemaForm } from '../../../lib/forms/use-mutation-form.ts';
import type { FileFormValues } from '../lib/file-form-values.ts';
import type { Translation } from '../hooks/use-file-edit-form.ts';

/**
 * The file's title and description in Spanish and English side by side, each English text marked while it is
 * missing ('Sin traducir'); an English title left empty shows the Spanish one as its placeholder.
 */
export function FileTextsFields({
  form,
  translation,
}: {
  form: SchemaForm<FileFormValues, FileFormValues>;
  translation: Translation;
}) {
  const errors = form.formState.errors;
  return (
    <div className="file-form-languages">
      <fieldset>
        <legend>Español</legend>
        <TextField
          id="name_es"
          label="Título"
          {...form.register('name_es')}
          invalid={!!errors.name_es}
          error={errors.name_es?.message}
        />
        <label htmlFor="description_es">Descripción</label>
        <textarea id="description_es" rows={3} {...form.register('description_es')} />
        {errors.description_es && <span className="form-error">{errors.description_es.message}</span>}
      </fieldset>
      <fieldset>
        <legend>English</legend>
        <label htmlFor="name_en">Título (inglés)</label>
        <input
          id="name_en"
          {...form.register('name_en')}
          placeholder={translation.nameEs}
          aria-invalid={!!errors.name_en}
          aria-describedby={translation.titleUntranslated ? 'name_en-hint' : undefined}
        />
        {errors.name_en && <span className="form-error">{errors.name_en.message}</span>}
        {!errors.name_en && translation.titleUntranslated && (
          <span id="name_en-hint" className="translation-hint">
            Falta la traducción al inglés del título.
          </span>
        )}
        <label htmlFor="description_en">Descripción (inglés)</label>
        <textarea id="description_en" rows={3} {...form.register('description_en')} />
        {errors.description_en && <span className="form-error">{errors.description_en.message}</span>}
        {translation.descriptionUntranslated && (
          <span className="translation-hint">Falta la traducción al inglés de la descripción.</span>
        )}
      </fieldset>
    </div>
  );
}
