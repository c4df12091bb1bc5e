import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { createQueryClient } from './lib/query-client.ts';
import { AuthProvider } from './features/auth/auth-provider.tsx';
import { UploadActivityProvider } from './app/upload-activity.tsx';
import { router } from './app/router.tsx';
import './styles.css';

const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <UploadActivityProvider>
          <RouterProvider router={router} />
        </UploadActivityProvider>
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
