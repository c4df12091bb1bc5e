import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { securityHeadersPlugin } from './scripts/security-headers.ts';

export default defineConfig({
  plugins: [react(), securityHeadersPlugin()],
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { sourcemap: true },
});
