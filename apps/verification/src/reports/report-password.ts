import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost (N = 2^15, r = 8, p = 1: ~32 MiB and ~60 ms a guess); stored with each hash. */
const COST = { N: 32768, r: 8, p: 1 };
const KEY_BYTES = 32;

function derive(password: string, salt: Buffer, o: ScryptOptions & { N: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_BYTES,
      { ...o, maxmem: 128 * o.N * (o.r ?? 8) * 2 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

/** `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>`: only this is stored, never the password. */
export async function hashSharePassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash no password matches: compared against when a report has none, so both answers take as long. */
const NO_PASSWORD = `scrypt$${COST.N}$${COST.r}$${COST.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_BYTES).toString('base64url')}`;

/**
 * Whether the password matches the stored hash, compared in constant time. A missing or malformed hash
 * still costs one derivation and answers false.
 */
export async function verifySharePassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? NO_PASSWORD).split('$');
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const wellFormed =
    parts.length === 6 &&
    parts[0] === 'scrypt' &&
    N >= 1024 &&
    N <= 1 << 20 &&
    r >= 1 &&
    r <= 32 &&
    p >= 1 &&
    p <= 4;
  const fields = wellFormed ? parts : NO_PASSWORD.split('$');
  const salt = Buffer.from(fields[4], 'base64url');
  const expected = Buffer.from(fields[5], 'base64url');
  const key = await derive(password, salt, {
    N: Number(fields[1]),
    r: Number(fields[2]),
    p: Number(fields[3]),
  });
  return stored !== null && wellFormed && key.length === expected.length && timingSafeEqual(key, expected);
}
