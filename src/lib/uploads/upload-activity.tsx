import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

/** Whether uploads are running, so the top bar can spin 'Subir Archivos' on every screen. */
const UploadActivityContext = createContext<{ uploading: boolean; setUploading: (value: boolean) => void }>({
  uploading: false,
  setUploading: () => {},
});

export function UploadActivityProvider({ children }: { children: ReactNode }) {
  const [uploading, setUploading] = useState(false);
  const value = useMemo(() => ({ uploading, setUploading }), [uploading]);
  return <UploadActivityContext.Provider value={value}>{children}</UploadActivityContext.Provider>;
}

export const useUploadActivity = () => useContext(UploadActivityContext);
