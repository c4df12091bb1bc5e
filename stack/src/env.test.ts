import { describe, expect, it } from 'vitest';
import { readPortEnv, readStackEnv } from './env.ts';

describe('stack environment', () => {
  it('reads ports as numbers and leaves unset or empty variables out', () => {
    expect(readStackEnv({ STACK_API_PORT: '55321', STACK_DB_PORT: '', STACK_HOST: '0.0.0.0' })).toEqual({
      STACK_API_PORT: 55321,
      STACK_HOST: '0.0.0.0',
    });
  });

  it('names the variable and the value it refuses', () => {
    expect(() => readStackEnv({ STACK_DB_PORT: 'abc' })).toThrow(/STACK_DB_PORT must be a TCP port, got "abc"/);
    expect(() => readPortEnv('APP_PORT', { APP_PORT: '70000' })).toThrow(/APP_PORT must be a TCP port, got "70000"/);
  });
});
