import { describe, expect, it } from 'vitest';
import { sqlFingerprint } from './migrate.ts';

describe('sqlFingerprint', () => {
  const file = `-- Why the table exists.
create table public.notes (body text default 'a  -- b');

/* the function */
create function public.f() returns int language sql as $$
  select 1 -- one
$$;
`;

  it('reads a file and the statements db push recorded from it the same, comments and layout aside', () => {
    const statements = [
      "create table public.notes (body text default 'a  -- b')",
      'create function public.f() returns int language sql as $$\n  select 1 -- one\n$$',
    ];
    expect(sqlFingerprint(statements.join(';\n'))).toBe(sqlFingerprint(file));
  });

  it('tells a change in a string or a function body', () => {
    expect(sqlFingerprint(file.replace("'a  -- b'", "'a -- b'"))).not.toBe(sqlFingerprint(file));
    expect(sqlFingerprint(file.replace('select 1 -- one', 'select 1  -- one'))).not.toBe(sqlFingerprint(file));
    expect(sqlFingerprint(file.replace('-- Why the table exists.', '-- Why it exists.'))).toBe(sqlFingerprint(file));
  });
});
