import { useWatch } from 'react-hook-form';
import { SelectField, TextField } from '../../../components/ui/form-fields.tsx';
import type { SchemaForm } from '../../../lib/forms/use-mutation-form.ts';
import type { FileFormValues } from '../lib/file-form-values.ts';
import type { RightsKey } from '../lib/rights-values.ts';
import { LICENSE_LABELS, RELEASE_LABELS, rightsState } from '../lib/rights.ts';

type FileForm = SchemaForm<FileFormValues, FileFormValues>;

const PREFILLED_HINT = 'Tomado de los metadatos del archivo; se guarda al pulsar Guardar.';

const EXPIRY_HINTS = {
  expired: 'Los derechos han caducado: el archivo no se puede publicar.',
  expiring: 'Los derechos caducan en los próximos 30 días.',
} as const;

const EXPIRY_ADMIN_ONLY = 'Solo un administrador puede quitar o retrasar esta fecha.';

/** What the date means: the file leaves the public pages, links and feed the day after it. */
const EXPIRY_MEANING = 'El último día en que se puede usar.';

/**
 * The 'Derechos' section of the file form: who made the picture, the credit line and copyright to print with
 * it, how the group holds it, until when and whether a release was signed. Texts the file's own metadata
 * proposed (still unsaved) say so under them.
 */
export function RightsFields({
  form,
  prefilled,
  expiryAdminOnly,
}: {
  form: FileForm;
  prefilled: Partial<Record<RightsKey, string>>;
  /** Someone who is not an admin, on a file with an expiry date: they may only bring it earlier. */
  expiryAdminOnly: boolean;
}) {
  const errors = form.formState.errors;
  const values = useWatch({ control: form.control });
  const expiry = rightsState(values.rights_expire_on || null);
  const text = (id: 'rights_creator' | 'rights_credit' | 'rights_copyright', label: string) => (
    <TextField
      id={id}
      label={label}
      {...form.register(id)}
      error={errors[id]?.message}
      hint={prefilled[id] !== undefined && values[id] === prefilled[id] ? PREFILLED_HINT : undefined}
    />
  );
  const termsPrefilled =
    prefilled.rights_usage_terms !== undefined && values.rights_usage_terms === prefilled.rights_usage_terms;
  return (
    <fieldset className="file-form-rights">
      <legend>Derechos</legend>
      {text('rights_creator', 'Autor')}
      {text('rights_credit', 'Crédito')}
      {text('rights_copyright', 'Copyright')}
      <SelectField id="rights_license" label="Licencia" {...form.register('rights_license')}>
        <option value="">Sin indicar</option>
        {Object.entries(LICENSE_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </SelectField>
      <label htmlFor="rights_usage_terms">Condiciones de uso</label>
      <textarea
        id="rights_usage_terms"
        rows={2}
        {...form.register('rights_usage_terms')}
        aria-invalid={errors.rights_usage_terms ? true : undefined}
        aria-describedby={termsPrefilled ? 'rights_usage_terms-hint' : undefined}
      />
      {errors.rights_usage_terms && <span className="form-error">{errors.rights_usage_terms.message}</span>}
      {termsPrefilled && (
        <p id="rights_usage_terms-hint" className="admin-form-hint">
          {PREFILLED_HINT}
        </p>
      )}
      <TextField
        id="rights_expire_on"
        label="Caducan el"
        type="date"
        {...form.register('rights_expire_on')}
        error={errors.rights_expire_on?.message}
        hint={[EXPIRY_MEANING, expiry && EXPIRY_HINTS[expiry], expiryAdminOnly && EXPIRY_ADMIN_ONLY]
          .filter(Boolean)
          .join(' ')}
      />
      <SelectField id="rights_release" label="Autorización de modelo o propiedad" {...form.register('rights_release')}>
        <option value="">Sin indicar</option>
        {Object.entries(RELEASE_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </SelectField>
    </fieldset>
  );
}
