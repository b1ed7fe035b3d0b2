/**
 * A software authenticator for the passkey tests: an ES256 (P-256) key made with node:crypto,
 * answering WebAuthn registration ("none" attestation) and authentication the way a browser and
 * an authenticator would, as the JSON `@simplewebauthn/browser` sends. It can also lie: another
 * origin, another relying party, a counter that does not move.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** The little CBOR this needs: maps, byte and text strings, small integers. */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(length, 1);
    return out;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

const b64 = (data: Uint8Array | string) => Buffer.from(data).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export interface Lies {
  origin?: string;
  rpID?: string;
  /** The signature counter to claim (default: one more each time). */
  counter?: number;
  type?: string;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private counter = 0;
  userHandle = '';

  constructor(
    readonly origin = 'https://localhost:8888',
    readonly rpID = 'localhost',
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    this.publicJwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }

  get id(): string {
    return b64(this.credentialId);
  }

  private clientData(type: string, challenge: string, lies: Lies): Buffer {
    return Buffer.from(JSON.stringify({ type: lies.type ?? type, challenge, origin: lies.origin ?? this.origin, crossOrigin: false }));
  }

  private authData(flags: number, lies: Lies, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(lies.counter ?? this.counter);
    return Buffer.concat([sha256(lies.rpID ?? this.rpID), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** The answer to `navigator.credentials.create` for the options the server gave. */
  register(options: { challenge: string; user: { id: string } }, lies: Lies = {}) {
    this.userHandle = options.user.id;
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(this.publicJwk.x, 'base64url')],
        [-3, Buffer.from(this.publicJwk.y, 'base64url')],
      ]),
    );
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), length, this.credentialId, cose]);
    // User present, user verified, attested credential data.
    const authData = this.authData(0x45, lies, attested);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', options.challenge, lies)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** The answer to `navigator.credentials.get` for the options the server gave. */
  authenticate(options: { challenge: string }, lies: Lies = {}) {
    if (lies.counter === undefined) this.counter += 1;
    const authData = this.authData(0x05, lies);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, lies);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(signature), userHandle: this.userHandle },
    };
  }
}
