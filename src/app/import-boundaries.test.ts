// @vitest-environment node
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function boundaryErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'import-x/no-restricted-paths');
}

/**
 * The lint rule that keeps features apart must actually fire: this is its canary. The first lint loads the
 * whole typed ESLint configuration, seconds on a busy 2-core machine, hence the longer time allowed.
 */
describe('import boundaries (npm run lint)', { timeout: 60_000 }, () => {
  it('refuses a feature importing another feature', async () => {
    const errors = await boundaryErrors(
      'src/features/files/canary.ts',
      "import { recordUpload } from '../upload/api/record-upload.ts';\nexport const x = recordUpload;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain('A feature does not import another feature');
  });

  it('refuses shared code importing a feature or the app', async () => {
    const errors = await boundaryErrors(
      'src/lib/canary.ts',
      "import { router } from '../app/router.tsx';\nimport { recordUpload } from '../features/upload/api/record-upload.ts';\nexport const x = [router, recordUpload];\n",
    );
    expect(errors).toHaveLength(2);
  });

  it('allows a feature to import its own modules and shared code', async () => {
    const errors = await boundaryErrors(
      'src/features/files/canary.ts',
      "import { fileKeys } from './api/keys.ts';\nimport { supabase } from '../../lib/supabase.ts';\nexport const x = [fileKeys, supabase];\n",
    );
    expect(errors).toEqual([]);
  });
});
