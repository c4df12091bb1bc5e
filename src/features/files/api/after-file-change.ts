import type { QueryClient } from '@tanstack/react-query';
import { requestFeedRegeneration } from '../../../lib/background-jobs.ts';
import { fileKeys } from './keys.ts';

/**
 * What every write to files, their tags or collections must do next: refetch what mentions files (on the
 * bare prefix, so every list, detail and selection summary follows) and have the public feed regenerated.
 */
export async function afterFileChange(queryClient: QueryClient): Promise<void> {
  requestFeedRegeneration();
  await queryClient.invalidateQueries({ queryKey: fileKeys.all });
}
