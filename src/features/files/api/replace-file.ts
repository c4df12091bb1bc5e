import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { replaceFile } from '../../../lib/uploads/replace-file.ts';
import { notify } from '../../../lib/notify.ts';
import { afterFileChange } from './after-file-change.ts';

/** 'Subir nuevo archivo': new bytes under the same file id, with the upload's progress (0 to 1). */
export function useReplaceFile(fileId: string) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState(0);
  const mutation = useMutation({
    mutationFn: (file: File) => {
      setProgress(0);
      return replaceFile(fileId, file, setProgress);
    },
    onSuccess: () => {
      notify.success('Archivo reemplazado. Se está procesando.');
      return afterFileChange(queryClient);
    },
    onError: (error) => notify.error(error, 'No se pudo subir el archivo.'),
  });
  return { ...mutation, progress };
}
