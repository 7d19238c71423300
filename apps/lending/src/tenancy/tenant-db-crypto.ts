import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The tenant registry's connection URLs at rest: AES-256-GCM under a key derived from
 * LENDING_TENANT_DB_KEY (SHA-256 of it; the setting is an operator's secret, not a password), a random
 * 96-bit nonce per value, stored as `v1.<nonce>.<tag>.<ciphertext>` in base64url. A changed or
 * truncated value fails to decrypt instead of connecting somewhere else.
 */
export class TenantDbCrypto {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 16) throw new Error('LENDING_TENANT_DB_KEY must be at least 16 characters');
    this.key = createHash('sha256').update(secret, 'utf8').digest();
  }

  seal(url: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(url, 'utf8'), cipher.final()]);
    return ['v1', nonce, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, nonce, tag, body] = sealed.split('.');
    if (version !== 'v1' || !nonce || !tag || body === undefined)
      throw new Error('not a sealed tenant database URL');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const url = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
      return url.toString('utf8');
    } catch {
      throw new Error(
        'a tenant database URL in the registry cannot be opened with LENDING_TENANT_DB_KEY: it was sealed under another key, or altered',
      );
    }
  }
}
