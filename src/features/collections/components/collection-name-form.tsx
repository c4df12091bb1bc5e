import { collectionNameSchema } from '../lib/collection-name.ts';
import { useUpdateCollection } from '../api/update-collection.ts';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';

/** Rename: the saved name is the form's initial value (keyed by it in the parent, so a save resets it). */
export function CollectionNameEditor({ id, name }: { id: string; name: string }) {
  const update = useUpdateCollection();
  const {
    register,
    handleSubmit,
    formState: { errors, isDirty },
  } = useSchemaForm(collectionNameSchema, { defaultValues: { name } });

  const submit = handleSubmit((form) => update.mutate({ id, change: { name: form.name } }));
  return (
    <form className="collection-create" onSubmit={submit} noValidate>
      <label htmlFor="collection-name">Nombre</label>
      <div className="collection-create-row">
        <input
          id="collection-name"
          autoComplete="off"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby="collection-name-error"
          {...register('name')}
        />
        <button type="submit" className="button button-primary" disabled={update.isPending || !isDirty}>
          {update.isPending ? 'Guardando…' : 'Guardar nombre'}
        </button>
      </div>
      <p id="collection-name-error" className="form-error" role="alert">
        {errors.name?.message}
      </p>
    </form>
  );
}
