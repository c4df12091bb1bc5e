import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // @supabase/auth-ui-react declares React 18 as a dependency: package.json `overrides` installs our React
  // for it, and this makes sure the bundle never resolves a second copy from a nested node_modules.
  resolve: { dedupe: ['react', 'react-dom'] },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { sourcemap: true },
});
