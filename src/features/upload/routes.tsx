import type { RouteObject } from 'react-router-dom';

/** 'Subir archivos' under /private: Uppy and tus load with this screen only. */
export const uploadRoutes: RouteObject[] = [
  {
    path: 'upload',
    lazy: async () => ({ Component: (await import('./components/upload-screen.tsx')).UploadScreen }),
  },
];
