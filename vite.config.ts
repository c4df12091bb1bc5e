import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { securityHeadersPlugin } from './scripts/security-headers.ts';

// `npm run build:report` (or BUNDLE_REPORT=1) also writes artifacts/bundle-report.html, a treemap of what
// every chunk holds with gzip sizes; ordinary builds skip it and stay fast.
const wantsReport = (mode: string) => mode === 'report' || Boolean(process.env.BUNDLE_REPORT);

export default defineConfig(({ mode }) => ({
  plugins: [
    react(),
    securityHeadersPlugin(),
    wantsReport(mode) &&
      visualizer({ filename: 'artifacts/bundle-report.html', template: 'treemap', gzipSize: true, title: 'Mediateca' }),
  ],
  // @supabase/auth-ui-react declares React 18 as a dependency: package.json `overrides` installs our React
  // for it, and this makes sure the bundle never resolves a second copy from a nested node_modules.
  resolve: { dedupe: ['react', 'react-dom'] },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { sourcemap: true },
}));
