import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { progress, signedInAdmin, timeRuns, withStack } from './lib/harness.ts';

/** Part of `npm run bench -- --quick`: 5,000 members and 20 runs per filter with --quick, under a minute. */
export const inQuickRun = true;

/**
 * The Academy members filter ('Filtrar (nombre, correo, etc)') at 50,000 members (5,000 with --quick):
 * search_academy_users through the API for a 1-word, a 2-word accented and an empty filter (first page),
 * against a primary-key lookup of one member through the same API path in the same run.
 */
export async function run(): Promise<BenchRow[]> {
  const members = isQuick() ? 5_000 : 50_000;
  const runs = isQuick() ? 20 : 50;
  return withStack(async (stack) => {
    progress('academy-members', `generating ${members} members`);
    const db = new pg.Client({ connectionString: stack.adminDbUrl });
    await db.connect();
    try {
      await db.query(
        `insert into public.academy_users (name, email, company, city, country, created_on)
         select (array['Lucía','José','María','Tomás','Ángela','Iñaki','Zoë','Pedro'])[1 + i % 8] || ' ' ||
                (array['Fernández','Gómez','Núñez','Baker','Müller','Rossi','López'])[1 + (i / 8) % 7] || ' ' || i,
                'member' || i || '@partner' || (i % 97) || '.example',
                'Hotel ' || (i % 500),
                (array['Sevilla','Cádiz','London','München','Málaga','Paris'])[1 + i % 6],
                (array['España','United Kingdom','Deutschland','France'])[1 + i % 4],
                now() - make_interval(mins => i)
         from generate_series(1, $1) as i`,
        [members],
      );
      await db.query('analyze public.academy_users');
    } finally {
      await db.end();
    }
    const { client } = await signedInAdmin(stack);
    const anyMember = (await client.from('academy_users').select('id').limit(1).single()).data!.id as string;
    const search = (query: string) => async () => {
      const { error } = await client.rpc('search_academy_users', { p_query: query, p_limit: 100, p_offset: 0 });
      if (error) throw error;
    };
    const lookup = async () => {
      const { error } = await client.from('academy_users').select('*').eq('id', anyMember).single();
      if (error) throw error;
    };
    progress('academy-members', `timing ${runs} runs of each filter`);
    const cases: Array<[string, string]> = [
      ['1 word ("nunez")', 'nunez'],
      ['2 words ("lucia munchen")', 'lucia munchen'],
      ['e-mail fragment ("member4242@")', 'member4242@'],
      ['no filter (first page)', ''],
    ];
    const measured: Array<[string, number[]]> = [];
    for (const [label, query] of cases) measured.push([label, await timeRuns(runs, search(query))]);
    const baseline = await timeRuns(runs, lookup, 10);
    const rows: BenchRow[] = [];
    for (const [label, samples] of measured) {
      for (const p of [50, 95]) {
        rows.push({
          metric: `academy members filter ${label} at ${members / 1000}k, p${p}`,
          unit: 'ms',
          value: percentile(samples, p),
          baseline: percentile(baseline, p),
          baselineLabel: 'PK lookup via API',
          goal: p === 95 ? 'p95 < 150 ms' : '—',
          higherIsBetter: false,
        });
      }
    }
    return rows;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('academy-members', await run());
}
