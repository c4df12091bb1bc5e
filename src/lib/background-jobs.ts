/**
 * The browser is no longer the worker: the database queues post-processing, feed regenerations and trash
 * moves in the transaction of each change, and the server works them off (see README "Server jobs").
 * These stay as no-ops only so that screens still calling them keep compiling until their calls are
 * removed; do not add new calls.
 * @deprecated nothing to request any more
 */
export function requestFeedRegeneration(): void {}

/** @deprecated nothing to request any more, see requestFeedRegeneration */
export function requestTrashProcessing(): void {}
