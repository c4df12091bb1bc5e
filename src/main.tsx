import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { createQueryClient } from './lib/query-client.ts';
import { AuthProvider } from './lib/auth/auth-provider.tsx';
import { UploadActivityProvider } from './lib/uploads/upload-activity.tsx';
import { applyDesignTokens } from './config/design-tokens.ts';
import { Toaster } from './components/ui/toaster.tsx';
import { router } from './app/router.tsx';
import './styles.css';
import './components/ui/ui.css';

applyDesignTokens(document.documentElement);
const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <UploadActivityProvider>
          <RouterProvider router={router} />
          <Toaster />
        </UploadActivityProvider>
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
