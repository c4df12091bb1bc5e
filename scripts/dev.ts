import { createServer as createViteServer } from 'vite';
import { readPortEnv, runMain, runStack, PROJECT_ROOT } from '@mediateca/stack';

/**
 * `npm start`: the persistent local stack plus the Vite dev server for the app, wired to the stack through
 * VITE_* variables. Ctrl-C stops everything. The stack knows nothing of the app; this script joins them.
 */

const DEMO_ACCOUNTS = [
  { role: 'ADMIN', email: 'admin@mediateca.local', password: 'mediateca-admin' },
  { role: 'UPLOADER', email: 'uploader@mediateca.local', password: 'mediateca-uploader' },
  // Academy members sign in to the academy app's API only; Lucía has a private category, Tom has not.
  { role: 'MEMBER', email: 'lucia@agencia.example', password: 'academy-lucia' },
  { role: 'MEMBER', email: 'tom@travel.example', password: 'academy-tom' },
];

runMain(() =>
  runStack({
    name: 'Mediateca',
    companion: async (stack, host) => {
      const port = readPortEnv('APP_PORT') ?? 5173;
      process.env.VITE_SUPABASE_URL = stack.apiUrl;
      process.env.VITE_SUPABASE_ANON_KEY = stack.anonKey;
      const vite = await createViteServer({ root: PROJECT_ROOT, server: { host, port } });
      try {
        await vite.listen();
      } catch (error) {
        await vite.close().catch(() => {});
        throw error;
      }
      return {
        lines: [['App', vite.resolvedUrls?.local[0] ?? `http://${host}:${port}/`]],
        footer: `  Demo accounts:\n${DEMO_ACCOUNTS.map((a) => `    ${a.role.padEnd(9)} ${a.email}  /  ${a.password}`).join('\n')}`,
        close: () => vite.close(),
      };
    },
  }),
);
