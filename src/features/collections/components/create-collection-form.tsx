import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { collectionNameSchema, type CollectionNameForm } from '../lib/collection-name.ts';
import { useCreateCollection } from '../api/create-collection.ts';

export function CreateCollectionForm() {
  const create = useCreateCollection();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<CollectionNameForm>({ resolver: zodResolver(collectionNameSchema), defaultValues: { name: '' } });

  const submit = handleSubmit(({ name }) => create.mutate(name, { onSuccess: () => reset() }));
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
