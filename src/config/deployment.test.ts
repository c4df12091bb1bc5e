import { describe, expect, it } from 'vitest';
import { deployment, deploymentProblems, parseDeployment } from './deployment.ts';
import { parseEnv } from './env.ts';

describe('deployment configuration', () => {
  it('has the brand colour and feature flags of this deployment', () => {
    expect(deployment.mainColor).toBe('#0084D8');
    expect(deployment.features).toEqual({
      users: true,
      collections: true,
      academy: true,
      operations: true,
      panoramas: false,
      b2bSegmentation: false,
      useShortTagIds: false,
    });
  });

  it('refuses a configuration with a bad colour or a missing flag', () => {
    expect(deploymentProblems(deployment)).toEqual([]);
    expect(deploymentProblems({ ...deployment, mainColor: 'blue' })).toEqual(['mainColor']);
    const { users: _users, ...features } = deployment.features;
    expect(() => parseDeployment({ ...deployment, features })).toThrow(/features/);
  });
});

describe('environment', () => {
  it('accepts a Supabase URL and key and refuses anything else with a clear message', () => {
    expect(
      parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'x'.repeat(40) }),
    ).toMatchObject({
      VITE_SUPABASE_URL: 'http://127.0.0.1:54321',
    });
    expect(() => parseEnv({ VITE_SUPABASE_URL: 'not a url', VITE_SUPABASE_ANON_KEY: 'x'.repeat(40) })).toThrow(
      /VITE_SUPABASE_URL/,
    );
    expect(() => parseEnv({ VITE_SUPABASE_URL: 'http://a.b' })).toThrow(/VITE_SUPABASE_ANON_KEY/);
  });
});
