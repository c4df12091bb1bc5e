// @vitest-environment node
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SignJWT, decodeProtectedHeader } from 'jose';
import { JwtKeys, signJwt } from './jwt.ts';
import { loadSigningKeys } from './signing-keys.ts';

const SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

async function keysFile(jwks: unknown[]): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'keys-')), 'signing_keys.json');
  await writeFile(file, JSON.stringify(jwks));
  return file;
}

const rsaJwk = (kid: string) => ({
  ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  kid,
  alg: 'RS256',
  key_ops: ['sign', 'verify'],
});

describe('JwtKeys (GoTrue parseJWTClaims)', () => {
  it('signs RS256 with the kid of the signing key, and verifies it and HS256 tokens', async () => {
    const keys = new JwtKeys(SECRET, await loadSigningKeys(await keysFile([rsaJwk('k1')])));
    const token = await keys.sign({ sub: 'u', role: 'authenticated' });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', kid: 'k1', typ: 'JWT' });
    expect(await keys.verify(token)).toMatchObject({ sub: 'u' });
    expect(await keys.verify(await signJwt({ role: 'anon' }, SECRET))).toMatchObject({ role: 'anon' });
    expect(keys.publicJwks().keys[0]).toMatchObject({ kty: 'RSA', kid: 'k1', use: 'sig', key_ops: ['verify'] });
    expect(keys.publicJwks().keys[0]).not.toHaveProperty('d');
    expect(keys.servicesJwks().keys.map((key) => key.kty)).toEqual(['RSA', 'oct']);
  });

  it('refuses an unknown kid that is not HS256, and says what jose says of a non-JWT', async () => {
    const keys = new JwtKeys(SECRET, await loadSigningKeys(await keysFile([rsaJwk('k1')])));
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const foreign = await new SignJWT({ sub: 'u' }).setProtectedHeader({ alg: 'RS256', kid: 'k2' }).sign(other);
    await expect(keys.verify(foreign)).rejects.toThrow('unrecognized JWT kid k2 for algorithm RS256');
    await expect(keys.verify('')).rejects.toThrow('Invalid Compact JWS');
  });

  it('signs HS256 without signing keys', async () => {
    const keys = new JwtKeys(SECRET);
    expect(decodeProtectedHeader(await keys.sign({ sub: 'u' }))).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(keys.publicJwks()).toEqual({ keys: [] });
  });

  it('refuses a signing keys file with two signing keys or a public key', async () => {
    await expect(loadSigningKeys(await keysFile([rsaJwk('a'), rsaJwk('b')]))).rejects.toThrow(
      /only 1 signing key is supported/,
    );
    const { d: _d, ...publicOnly } = rsaJwk('p');
    await expect(loadSigningKeys(await keysFile([publicOnly]))).rejects.toThrow(/must be a private JWK/);
  });
});
