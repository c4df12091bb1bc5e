import type { QueryClient } from '@tanstack/react-query';
import { fileKeys } from './keys.ts';

/**
 * What every write to files, their tags or collections must do next in the browser: refetch what mentions
 * files (on the bare prefix, so every list, detail and selection summary follows). The public feed, thumbnails
 * and the trash are the server's job: database triggers queue them in the same transaction as the write.
 */
export async function afterFileChange(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: fileKeys.all });
}
