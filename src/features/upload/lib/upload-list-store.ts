import type { UploadItem } from './upload-items.ts';

/**
 * The upload list outside React: Uppy's events, the hashing worker and the duplicate check all arrive in
 * callbacks that outlive a render, and each must read and change the list as it is now, not as some earlier
 * render saw it. The screen reads it with useSyncExternalStore.
 */
export function createUploadListStore() {
  let items: readonly UploadItem[] = [];
  const listeners = new Set<() => void>();
  const set = (next: readonly UploadItem[]) => {
    items = next;
    for (const listener of listeners) listener();
  };
  return {
    getSnapshot: () => items,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: (key: string) => items.find((item) => item.key === key),
    byUppyId: (uppyId: string) => items.find((item) => item.uppyId === uppyId),
    add: (added: readonly UploadItem[]) => set([...items, ...added]),
    update(key: string, patch: Partial<UploadItem>) {
      if (items.some((item) => item.key === key))
        set(items.map((item) => (item.key === key ? { ...item, ...patch } : item)));
    },
    remove: (keys: readonly string[]) => set(items.filter((item) => !keys.includes(item.key))),
  };
}

export type UploadListStore = ReturnType<typeof createUploadListStore>;
