/**
 * postgres_changes filters as realtime-js sends them: `column=op.value`, with op one of eq, neq, lt, lte,
 * gt, gte, in (`in.(a,b,"c d")`), as in the Realtime version `supabase start` pins.
 */

export type Operator = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';

export interface Filter {
  column: string;
  operator: Operator;
  values: string[];
}

const OPERATORS = new Set<Operator>(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in']);

function parseList(text: string): string[] {
  if (!text.startsWith('(') || !text.endsWith(')')) throw new Error('in filters need a list like in.(a,b)');
  const values: string[] = [];
  let current = '';
  let quoted = false;
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '\\' && quoted) {
      current += body[++i] ?? '';
    } else if (char === '"') {
      quoted = !quoted;
    } else if (char === ',' && !quoted) {
      values.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  if (quoted) throw new Error('unterminated quote');
  values.push(current);
  return values;
}

export function parseFilter(filter: string): Filter {
  const match = /^([^=]+)=([a-z]+)\.(.*)$/s.exec(filter);
  if (!match) throw new Error(`"${filter}" is not column=operator.value`);
  const operator = match[2] as Operator;
  if (!OPERATORS.has(operator)) throw new Error(`operator "${operator}" is not supported`);
  const raw = match[3]!;
  const values =
    operator === 'in' ? parseList(raw) : [raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw];
  return { column: match[1]!, operator, values };
}

function compare(actual: unknown, expected: string): number {
  const a = typeof actual === 'string' ? actual : JSON.stringify(actual);
  const x = Number(a);
  const y = Number(expected);
  if (a !== '' && expected !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a < expected ? -1 : a > expected ? 1 : 0;
}

export function matchesFilter(filter: Filter, record: Record<string, unknown>): boolean {
  if (!(filter.column in record)) return false;
  const actual = record[filter.column];
  if (actual === null || actual === undefined) return false;
  switch (filter.operator) {
    case 'eq':
      return compare(actual, filter.values[0]!) === 0;
    case 'neq':
      return compare(actual, filter.values[0]!) !== 0;
    case 'lt':
      return compare(actual, filter.values[0]!) < 0;
    case 'lte':
      return compare(actual, filter.values[0]!) <= 0;
    case 'gt':
      return compare(actual, filter.values[0]!) > 0;
    case 'gte':
      return compare(actual, filter.values[0]!) >= 0;
    case 'in':
      return filter.values.some((value) => compare(actual, value) === 0);
  }
}
