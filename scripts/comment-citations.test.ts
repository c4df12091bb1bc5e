import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Comments must carry their reason themselves. A pointer to a document outside the repository (the product
 * brief, a design or contract note a reader of this checkout does not have) or to an issue number leaves the
 * next engineer with a reference they cannot follow, so this scans every comment in the source folders
 * (TypeScript and JavaScript, SQL, CSS) and fails on one.
 */

const ROOT = join(import.meta.dirname, '..');
const FOLDERS = ['src', 'stack', 'supabase', 'tests', 'bench', 'scripts'];
const SKIPPED = new Set(['node_modules', '.stack', 'artifacts', 'dist']);
const SOURCE = /\.(ts|tsx|mts|js|mjs|sql|css)$/;

/** What a comment may not say: a document kept outside the checkout, or an issue's number. */
const CITATIONS: [RegExp, string][] = [
  [/\bspec\b/i, 'the product spec'],
  [/\b(DESIGN|CONVENTIONS|PRODUCT_SPEC)\.md\b|LOCAL_STACK_CONTRACT/i, 'a document outside the repository'],
  [/\.\.\/shared\b|\/work\/shared/, 'a document outside the repository'],
  [/\b(the|stack's|local stack's) contract\b/i, 'a document outside the repository'],
  [/\bissues? #?\d+/i, 'an issue number'],
  [/(^|[\s(,;])#\d+\b/, 'an issue number'],
];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** Every comment of a TypeScript or JavaScript file, with the line it starts on. */
function scriptComments(path: string, text: string): { line: number; text: string }[] {
  const kind = path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return [...seen].map(([pos, comment]) => ({ line: file.getLineAndCharacterOfPosition(pos).line + 1, text: comment }));
}

/** Every `--` and `/* *\/` comment of a SQL file: outside single-quoted strings, dollar-quoted bodies included. */
function sqlComments(text: string): { line: number; text: string }[] {
  const comments: { line: number; text: string }[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\n') line++;
    else if (char === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) break;
      line += text.slice(i, end).split('\n').length - 1;
      i = end;
    } else if (char === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      comments.push({ line, text: text.slice(i, end < 0 ? undefined : end) });
      i = (end < 0 ? text.length : end) - 1;
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i);
      const comment = text.slice(i, end < 0 ? undefined : end + 2);
      comments.push({ line, text: comment });
      line += comment.split('\n').length - 1;
      i = (end < 0 ? text.length : end + 2) - 1;
    }
  }
  return comments;
}

/**
 * Every `/* *\/` comment of a CSS file, outside quoted strings (a `content: '/*'` is no comment). CSS has no
 * line comments: `--brand` is a custom property.
 */
function cssComments(text: string): { line: number; text: string }[] {
  const comments: { line: number; text: string }[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\n') line++;
    else if (char === "'" || char === '"') {
      const end = text.indexOf(char, i + 1);
      if (end < 0) break;
      line += text.slice(i, end).split('\n').length - 1;
      i = end;
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const comment = text.slice(i, end < 0 ? undefined : end + 2);
      comments.push({ line, text: comment });
      line += comment.split('\n').length - 1;
      i = (end < 0 ? text.length : end + 2) - 1;
    }
  }
  return comments;
}

/** The comments of a source file, read as its language writes them. */
function commentsOf(path: string, text: string): { line: number; text: string }[] {
  if (path.endsWith('.sql')) return sqlComments(text);
  if (path.endsWith('.css')) return cssComments(text);
  return scriptComments(path, text);
}

/** A quoted example ('Señal #3.jpg', a file name) is text the code handles, not a reference. */
const withoutQuotedExamples = (line: string) => line.replace(/(^|[\s(])'[^']*'/g, '$1');

/** Every file whose comments are read. */
const scannedFiles = () => FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)));

/** Each citation as 'path:line: what it cites: the comment's line'. */
export function commentCitations(): string[] {
  return scannedFiles().flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    const comments = commentsOf(path, text);
    return comments.flatMap((comment) =>
      comment.text
        .split('\n')
        .flatMap((commentLine, offset) =>
          CITATIONS.filter(([pattern]) => pattern.test(withoutQuotedExamples(commentLine))).map(
            ([, what]) => `${relative(ROOT, path)}:${comment.line + offset}: ${what}: ${commentLine.trim()}`,
          ),
        ),
    );
  });
}

describe('comments', () => {
  it("are read in the migrations, the stack's SQL and the app's CSS as well as in the scripts", () => {
    const scanned = scannedFiles().map((path) => relative(ROOT, path));
    expect(scanned.some((path) => path.startsWith('supabase/migrations/') && path.endsWith('.sql'))).toBe(true);
    expect(scanned.some((path) => path.startsWith('stack/') && path.endsWith('.sql'))).toBe(true);
    expect(scanned.some((path) => path.startsWith('src/') && path.endsWith('.css'))).toBe(true);
  });

  it('cite no document outside the repository and no issue number', () => {
    expect(commentCitations()).toEqual([]);
  }, 60_000);
});
