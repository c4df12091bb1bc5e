import { useState } from 'react';
import { useUpdateCollection } from '../api/update-collection.ts';

/**
 * The 'Colección pública' checkbox. The click shows at once: the choice is held only while it is being
 * saved (and the collection refetched), then the server's value is shown again.
 */
export function PublicToggle({ id, isPublic, inputId }: { id: string; isPublic: boolean; inputId: string }) {
  const update = useUpdateCollection();
  const [saving, setSaving] = useState<boolean | null>(null);
  return (
    <label className="checkbox" htmlFor={inputId}>
      <input
        id={inputId}
        type="checkbox"
        checked={saving ?? isPublic}
        disabled={saving !== null}
        onChange={(event) => {
          const next = event.currentTarget.checked;
          setSaving(next);
          update.mutate({ id, change: { is_public: next } }, { onSettled: () => setSaving(null) });
        }}
      />
      Colección pública
    </label>
  );
}
