import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { afterFileChange } from './after-file-change.ts';
import { refusalMessage, refusalOf } from './refused-files.ts';
import { selectionArgs, type FileSelection } from './selection.ts';

export const PROCESSING_DELETE_MESSAGE = 'No se pueden borrar archivos en proceso';

export async function deleteFiles(selection: FileSelection, skipRefused = false): Promise<number> {
  const { data, error } = await supabase.rpc('delete_files', {
    ...selectionArgs(selection),
    p_skip_refused: skipRefused,
  });
  if (error) throw error;
  return data;
}

interface DeleteRequest {
  selection: FileSelection;
  /** How many files the selection holds, to say how many 'los demás' are when some are refused. */
  count?: number;
  skipRefused?: boolean;
}

/**
 * Borrar, for one file or a selection; a processing file refuses the whole call, and the toast names it and
 * offers to delete the others.
 */
export function useDeleteFiles() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ selection, skipRefused }: DeleteRequest) => deleteFiles(selection, skipRefused),
    onSuccess: (count, { selection }) => {
      notify.success(`${plural(count, 'archivo borrado', 'archivos borrados')}.`);
      // Not awaited: the detail screen leaves for the list as soon as the file is gone, not after the refetches.
      void afterFileChange(queryClient, selection.kind === 'ids' ? selection.ids : []);
    },
    onError: (error, request) => {
      const refusal = refusalOf(error);
      const others = refusal && request.count !== undefined ? request.count - refusal.count : 0;
      if (!refusal || request.skipRefused) {
        // PROCESSING_DELETE_MESSAGE is the database's own sentence, which notify shows as is.
        notify.error(error, 'No se pudieron borrar los archivos.');
      } else if (others <= 0) {
        notify.refusal(refusalMessage(refusal, 'borrar'));
      } else {
        notify.refusal(refusalMessage(refusal, 'borrar'), {
          label: `Borrar los demás (${others.toLocaleString('es-ES')})`,
          onClick: () => mutation.mutate({ ...request, skipRefused: true }),
        });
      }
    },
  });
  return mutation;
}
