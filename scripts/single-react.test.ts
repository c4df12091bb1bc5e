// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * @supabase/auth-ui-react depends on React 18; two Reacts in one page break hooks. package.json's
 * `overrides` gives it ours: the installed tree has exactly one version of react and of react-dom.
 */
interface NpmTree {
  version?: string;
  dependencies?: Record<string, NpmTree>;
}

function versionsOf(name: string, tree: NpmTree, found = new Set<string>()): Set<string> {
  for (const [dependency, node] of Object.entries(tree.dependencies ?? {})) {
    if (dependency === name && node.version) found.add(node.version);
    versionsOf(name, node, found);
  }
  return found;
}

function installedTree(): NpmTree {
  try {
    return JSON.parse(execFileSync('npm', ['ls', 'react', 'react-dom', '--all', '--json'], { encoding: 'utf8' }));
  } catch (error) {
    // npm ls exits non-zero on an invalid tree (a nested React would be one) but still prints it.
    return JSON.parse((error as { stdout: string }).stdout);
  }
}

describe('one React', () => {
  it('installs a single react and react-dom, the versions package.json asks for, Auth UI included', () => {
    const tree = installedTree();
    const root = JSON.parse(readFileSync('node_modules/react/package.json', 'utf8')) as { version: string };
    expect([...versionsOf('react', tree)]).toEqual([root.version]);
    expect([...versionsOf('react-dom', tree)]).toEqual([root.version]);
    expect(tree.dependencies?.['@supabase/auth-ui-react']?.dependencies?.react?.version).toBe(root.version);
  }, 60_000);
});
