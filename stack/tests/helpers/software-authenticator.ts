import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A WebAuthn authenticator in software (P-256, "none" attestation), so tests can answer the options Auth hands
 * out as a security key would: `create()` for a registration challenge, `get()` for an authentication one. It
 * returns what `PublicKeyCredential.toJSON()` gives in a browser, which auth-js passes on as it is.
 */

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

/** The subset of CBOR (RFC 8949) attestation objects and COSE keys need. */
function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    const buffer = Buffer.alloc(3);
    buffer[0] = (major << 5) | 25;
    buffer.writeUInt16BE(length, 1);
    return buffer;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (bytes: Uint8Array | ArrayBuffer) => Buffer.from(bytes as Uint8Array).toString('base64url');
const toBytes = (value: ArrayBuffer | Uint8Array | string) =>
  typeof value === 'string' ? Buffer.from(value, 'base64url') : Buffer.from(value as ArrayBuffer);
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface CreationOptions {
  challenge: ArrayBuffer | Uint8Array | string;
  rp: { id?: string; name: string };
  user: { id: ArrayBuffer | Uint8Array | string };
}
interface RequestOptions {
  challenge: ArrayBuffer | Uint8Array | string;
  rpId?: string;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly cosePublicKey: Buffer;
  private userHandle = Buffer.alloc(0);
  private signCount = 0;

  constructor(private readonly origin: string) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    this.cosePublicKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: CreationOptions['challenge']) {
    return Buffer.from(
      JSON.stringify({ type, challenge: b64url(toBytes(challenge)), origin: this.origin, crossOrigin: false }),
    );
  }

  private authenticatorData(rpId: string, flags: number, attested?: Buffer): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(++this.signCount);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  /** navigator.credentials.create({ publicKey }) → PublicKeyCredential.toJSON(). */
  create(options: CreationOptions, rpId = options.rp.id ?? new URL(this.origin).hostname) {
    this.userHandle = toBytes(options.user.id);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.cosePublicKey]);
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const authData = this.authenticatorData(rpId, 0x45, attested);
    const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData });
    const json = {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
    return { ...json, toJSON: () => json };
  }

  /** navigator.credentials.get({ publicKey }) → PublicKeyCredential.toJSON(). */
  get(options: RequestOptions, rpId = options.rpId ?? new URL(this.origin).hostname) {
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const authenticatorData = this.authenticatorData(rpId, 0x05);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey);
    const json = {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: b64url(this.userHandle),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
    return { ...json, toJSON: () => json };
  }
}
