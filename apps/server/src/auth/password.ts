import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's CPU and memory cost of new hashes by default (PASSWORD_SCRYPT_N); the others are fixed. */
export const DEFAULT_SCRYPT_N = 2 ** 15;
/** Cost parameters; stored in every hash, so raising them later leaves existing hashes verifiable. */
const DEFAULTS = { r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
const PREFIX = 'scrypt';

function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly N=2^15, r=8, so leave headroom.
  const maxmem = 256 * (options.N ?? 0) * (options.r ?? 0) + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (salt and hash base64url), with scrypt's cost `N`. */
export async function hashPassword(password: string, N = DEFAULT_SCRYPT_N): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, { ...DEFAULTS, N });
  return [PREFIX, N, DEFAULTS.r, DEFAULTS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const key = Buffer.from(parts[5] ?? '', 'base64url');
  if (N === undefined || r === undefined || p === undefined) return null;
  // Bounds keep a tampered hash from making verification allocate gigabytes.
  const valid =
    Number.isInteger(N) && N > 1 && N <= 2 ** 20 && (N & (N - 1)) === 0 && Number.isInteger(r) && r >= 1 && r <= 32;
  if (!valid || !Number.isInteger(p) || p < 1 || p > 16 || salt.length === 0 || key.length < 16) return null;
  return { N, r, p, salt, key };
}

/** True when `password` matches `stored`; false for wrong passwords and for malformed hashes. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.key.length, { N: parsed.N, r: parsed.r, p: parsed.p });
  return timingSafeEqual(key, parsed.key);
}

/** True when a stored hash uses weaker parameters than today's and should be replaced after a successful sign-in. */
export function needsRehash(stored: string, N = DEFAULT_SCRYPT_N): boolean {
  const parsed = parseHash(stored);
  return !parsed || parsed.N < N || parsed.r < DEFAULTS.r || parsed.p < DEFAULTS.p;
}
