import { supabase } from './supabase.ts';

const DEBOUNCE_MS = 3000;

/** Asks for an edge function's work once after a burst of changes, not once per change. */
function debouncedInvoke(functionName: string): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(() => void supabase.functions.invoke(functionName, { body: {} }), DEBOUNCE_MS);
  };
}

/** The public feed follows publication, tag and collection changes; several changes in a row regenerate it once. */
export const requestFeedRegeneration = debouncedInvoke('public-feed');

/** Objects of deleted and replaced files wait in trash jobs (queued by the database) for this worker. */
export const requestTrashProcessing = debouncedInvoke('trash-jobs');
