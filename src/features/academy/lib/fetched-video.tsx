import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import type { VideoInfo } from '../api/fetch-video-info.ts';

interface FetchedVideoStore {
  /** The info of the last fetched URL, waiting to become a video; null when nothing was fetched. */
  fetched: VideoInfo | null;
  setFetched: (info: VideoInfo | null) => void;
}

const FetchedVideoContext = createContext<FetchedVideoStore | null>(null);

/**
 * Carries the fetch step's result to the new-video form (new-video redirects to the fetch route when no
 * video info was fetched; the info is cleared after the video is created). It lives in the Academy layout,
 * so it survives moving between the two routes and disappears when the admin leaves the Academy.
 */
export function FetchedVideoProvider({ children }: { children: ReactNode }) {
  const [fetched, setFetched] = useState<VideoInfo | null>(null);
  const store = useMemo(() => ({ fetched, setFetched }), [fetched]);
  return <FetchedVideoContext.Provider value={store}>{children}</FetchedVideoContext.Provider>;
}

export function useFetchedVideo(): FetchedVideoStore {
  const store = useContext(FetchedVideoContext);
  if (!store) throw new Error('useFetchedVideo must be used inside FetchedVideoProvider');
  return store;
}
