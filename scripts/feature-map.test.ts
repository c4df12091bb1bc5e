import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/features.md maps each feature to its parts: screens, migrations, RPCs, edge functions and tests. A
 * map is only worth reading while it is true, so this holds it to the checkout: every path it names exists,
 * every RPC it names is a function the migrations create in `public`, and every feature folder, migration,
 * edge function and integration or end-to-end test file appears in it, so a new one cannot be left out.
 */

const ROOT = join(import.meta.dirname, '..');
const doc = readFileSync(join(ROOT, 'docs/features.md'), 'utf8');
const PATH_PREFIXES = ['src/', 'supabase/', 'tests/', 'stack/', 'bench/', 'docs/', 'scripts/'];

/** Every `code` span of the document. */
const spans = [...doc.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
const namedPaths = new Set(spans.filter((span) => PATH_PREFIXES.some((prefix) => span.startsWith(prefix))));

/** The names in the '- **RPCs:**' items (an item goes on over the indented lines below it). */
const namedRpcs = doc
  .split(/\n(?=- |\n|#)/)
  .filter((item) => item.startsWith('- **RPCs:**'))
  .flatMap((item) => [...item.matchAll(/`(\w+)`/g)].map((match) => match[1]!));

const list = (folder: string, keep: (name: string) => boolean = () => true) =>
  readdirSync(join(ROOT, folder))
    .filter(keep)
    .map((name) => `${folder}/${name}`);

const migrationsSql = list('supabase/migrations', (name) => name.endsWith('.sql'))
  .map((path) => readFileSync(join(ROOT, path), 'utf8'))
  .join('\n');
const publicFunctions = new Set(
  [...migrationsSql.matchAll(/create\s+(?:or\s+replace\s+)?function\s+public\.(\w+)/gi)].map((match) => match[1]!),
);

/** A path counts as named when the document names it or a folder that holds it. */
const isNamed = (path: string) =>
  [...namedPaths].some((named) => path === named.replace(/\/$/, '') || path.startsWith(named.replace(/\/?$/, '/')));

describe('docs/features.md', () => {
  it('names only paths that exist', () => {
    expect([...namedPaths].filter((path) => !existsSync(join(ROOT, path.replace(/\*.*$/, ''))))).toEqual([]);
  });

  it('names only RPCs the migrations create', () => {
    expect(namedRpcs.length).toBeGreaterThan(0);
    expect(namedRpcs.filter((name) => !publicFunctions.has(name))).toEqual([]);
  });

  it('has a section for every feature folder', () => {
    const headings = doc.split('\n').filter((line) => line.startsWith('## '));
    const missing = list('src/features').filter((folder) => !headings.some((line) => line.includes(`\`${folder}\``)));
    expect(missing).toEqual([]);
  });

  it('places every migration, edge function and integration or end-to-end test', () => {
    const expected = [
      ...list('supabase/migrations', (name) => name.endsWith('.sql')),
      ...list('supabase/functions', (name) => !name.startsWith('_') && !name.includes('.')),
      ...list('tests/integration', (name) => name.endsWith('.test.ts')),
      ...list('tests/e2e', (name) => name.endsWith('.test.ts')),
    ];
    expect(expected.filter((path) => !isNamed(path))).toEqual([]);
  });
});
