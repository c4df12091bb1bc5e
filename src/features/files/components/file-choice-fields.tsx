import { Controller } from 'react-hook-form';
import { CheckboxField } from '../../../components/ui/form-fields.tsx';
import type { SchemaForm } from '../../../lib/forms/use-mutation-form.ts';
import { isEnabled } from '../../../config/deployment.ts';
import type { FileFormValues } from '../lib/file-form-values.ts';
import { TagPicker } from './tag-picker.tsx';
import { SuggestedTags } from './suggested-tags.tsx';

type FileForm = SchemaForm<FileFormValues, FileFormValues>;

/** Where the file may be used besides the library (admins). */
export function FileOptionsFields({ form }: { form: FileForm }) {
  return (
    <fieldset>
      <legend>Opciones</legend>
      <CheckboxField label="B2B" {...form.register('b2b')} />
      {isEnabled('operations') && <CheckboxField label="Operaciones" {...form.register('operations')} />}
    </fieldset>
  );
}

/** The file's tags, picked or added from those suggested for it. */
export function FileTagsField({ form, fileId }: { form: FileForm; fileId: string }) {
  return (
    <Controller
      control={form.control}
      name="tagIds"
      render={({ field }) => (
        <>
          <TagPicker value={field.value} onChange={field.onChange} />
          <SuggestedTags
            fileId={fileId}
            chosen={field.value}
            onAdd={(tagId) => field.onChange([...field.value, tagId])}
          />
        </>
      )}
    />
  );
}

/** The collections the file is in, one checkbox each (admins, where collections are on). */
export function FileCollectionsFields({
  form,
  collections = [],
}: {
  form: FileForm;
  collections?: Array<{ id: string; name: string }>;
}) {
  return (
    <fieldset className="file-form-collections">
      <legend>Colecciones</legend>
      {collections.map((collection) => (
        <CheckboxField
          key={collection.id}
          label={collection.name}
          value={collection.id}
          {...form.register('collectionIds')}
        />
      ))}
    </fieldset>
  );
}
