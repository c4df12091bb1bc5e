/** Upload screen query keys, generic → specific. */
export const uploadKeys = {
  all: ['uploads'] as const,
  recordedFiles: () => [...uploadKeys.all, 'recorded-files'] as const,
  recordedFile: (ids: readonly string[]) => [...uploadKeys.recordedFiles(), ids] as const,
};
