import { collectionNameSchema } from '../lib/collection-name.ts';
import { useCreateCollection } from '../api/create-collection.ts';
import { useMutationForm } from '../../../lib/forms/use-mutation-form.ts';

export function CreateCollectionForm() {
  const create = useCreateCollection();
  const {
    form: {
      register,
      formState: { errors },
    },
    submit,
  } = useMutationForm({
    schema: collectionNameSchema,
    defaultValues: { name: '' },
    mutation: create,
    variables: ({ name }) => name,
    onSuccess: (_data, _values, form) => form.reset(),
  });
  return (
    <form className="collection-create" onSubmit={submit} noValidate>
      <label htmlFor="new-collection-name">Nombre de la nueva colección</label>
      <div className="collection-create-row">
        <input
          id="new-collection-name"
          autoComplete="off"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby="new-collection-error"
          {...register('name')}
        />
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? 'Creando…' : 'Crear colección'}
        </button>
      </div>
      <p id="new-collection-error" className="form-error" role="alert">
        {errors.name?.message}
      </p>
    </form>
  );
}
