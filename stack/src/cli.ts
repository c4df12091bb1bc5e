import { runMain, runStack } from './run.ts';

/**
 * `npm run stack`: the local Supabase-compatible stack alone, persistent data in .stack/. Ctrl-C stops it.
 * `npm start` (scripts/dev.ts) runs the same stack with the app's dev server beside it.
 */
runMain(() => runStack({ name: 'The local Supabase stack' }));
