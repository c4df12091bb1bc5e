import { lazy, Suspense } from 'react';

// The toast library loads just after the first paint instead of delaying it (the files screen's initial JS).
const SonnerToaster = lazy(() => import('./sonner-toaster.tsx'));

/** One toast region for the whole app (sonner), mounted once in main.tsx. */
export function Toaster() {
  return (
    <Suspense fallback={null}>
      <SonnerToaster />
    </Suspense>
  );
}
