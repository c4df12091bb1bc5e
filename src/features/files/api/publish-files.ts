import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { afterFileChange } from './after-file-change.ts';
import { refusalMessage, refusalOf } from './refused-files.ts';
import { selectionArgs, type FileSelection } from './selection.ts';

export async function publishFiles(selection: FileSelection, published: boolean, skipRefused = false): Promise<number> {
  const { data, error } = await supabase.rpc('publish_files', {
    p_published: published,
    p_skip_refused: skipRefused,
    ...selectionArgs(selection),
  });
  if (error) throw error;
  return data;
}

interface PublishRequest {
  selection: FileSelection;
  published: boolean;
  /** How many files the action would change, to say how many 'los demás' are when some are refused. */
  count?: number;
  /** Publish every file but those a rule refuses ('Activar los demás'). */
  skipRefused?: boolean;
}

/**
 * Activar / Desactivar, for one file or a selection (admins; the database refuses anyone else). When a rule
 * refuses some files (expired rights, a failed processing), nothing is published: the toast names them and
 * offers to activate the others.
 */
export function usePublishFiles() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ selection, published, skipRefused }: PublishRequest) =>
      publishFiles(selection, published, skipRefused),
    onSuccess: (count, { published }) => {
      notify.success(
        published
          ? `${plural(count, 'archivo activado', 'archivos activados')}.`
          : `${plural(count, 'archivo desactivado', 'archivos desactivados')}.`,
      );
      return afterFileChange(queryClient);
    },
    onError: (error, request) => {
      const refusal = refusalOf(error);
      if (!refusal || request.skipRefused) {
        notify.error(error, 'No se pudo cambiar el estado de los archivos.');
        return;
      }
      const others = request.count === undefined ? 0 : request.count - refusal.count;
      // Nothing else to activate: the rule's own sentence says it (it names a lone unprocessed file).
      if (others <= 0) {
        notify.error(error, 'No se pudo cambiar el estado de los archivos.');
        return;
      }
      notify.refusal(refusalMessage(refusal, 'activar'), {
        label: `Activar los demás (${others.toLocaleString('es-ES')})`,
        onClick: () => mutation.mutate({ ...request, skipRefused: true }),
      });
    },
  });
  return mutation;
}
