import { describe, expect, it } from 'vitest';
import { parseProjectConfig } from './project-config.ts';

describe('config.toml', () => {
  it('fills in the defaults of supabase start for what the file leaves out', () => {
    const config = parseProjectConfig({ storage: { file_size_limit: '1GiB' } }, '/project/supabase');
    expect(config.auth.jwtExpiry).toBe(3600);
    expect(config.auth.enableSignup).toBe(true);
    expect(config.storage.fileSizeLimit).toBe(1024 ** 3);
    expect(config.db.majorVersion).toBe(17);
  });

  it('turns sign-ups off when either [auth] or [auth.email] does', () => {
    expect(parseProjectConfig({ auth: { email: { enable_signup: false } } }, '/p').auth.enableSignup).toBe(false);
  });

  it('names the key whose value has the wrong type', () => {
    expect(() => parseProjectConfig({ auth: { jwt_expiry: '1h' } }, '/p')).toThrow(
      /config\.toml: auth\.jwt_expiry: .*number/i,
    );
    expect(() => parseProjectConfig({ storage: { file_size_limit: 'huge' } }, '/p')).toThrow(
      /storage\.file_size_limit/,
    );
    expect(() => parseProjectConfig({ functions: { zip: { verify_jwt: 'no' } } }, '/p')).toThrow(
      /functions\.zip\.verify_jwt/,
    );
  });
});
