import { useRef, useState } from 'react';
import type { FileDetail } from '../api/get-file-detail.ts';
import { useReplaceFile } from '../api/replace-file.ts';
import { replacementWarning } from '../lib/replacement-warning.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';

/**
 * 'Subir nuevo archivo': new bytes under the same file id, with the upload's progress. A file of another kind
 * (a PDF for a JPG) is asked about first, since everything that shows this file will show the new kind.
 */
export function ReplaceFileButton({ file }: { file: Pick<FileDetail, 'id' | 'extension' | 'is_image'> }) {
  const replace = useReplaceFile(file.id);
  const input = useRef<HTMLInputElement>(null);
  const [asking, setAsking] = useState<{ chosen: File; question: string } | null>(null);

  const choose = (chosen: File) => {
    const question = replacementWarning(file, chosen);
    if (question) setAsking({ chosen, question });
    else replace.mutate(chosen);
  };

  return (
    <>
      <button type="button" className="button" disabled={replace.isPending} onClick={() => input.current?.click()}>
        Subir nuevo archivo
      </button>
      <input
        ref={input}
        type="file"
        hidden
        aria-label="Subir nuevo archivo"
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          if (chosen) choose(chosen);
          event.target.value = '';
        }}
      />
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        trigger={null}
        title="Reemplazar por otro tipo de archivo"
        description={asking?.question}
        confirmLabel="Reemplazar"
        onConfirm={() => {
          if (asking) replace.mutate(asking.chosen);
          setAsking(null);
        }}
      />
      {replace.isPending && (
        <progress max={1} value={replace.progress} aria-label="Progreso de la subida" className="replace-progress" />
      )}
    </>
  );
}
