import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** A new endpoint secret: `whsec_` + 256 random bits in base64url. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

interface Key {
  id: string;
  key: Buffer;
}

function deriveKey(material: string): Key {
  if (material.length < 32) throw new Error('the webhook secret encryption key needs at least 32 characters');
  const key = Buffer.from(
    hkdfSync('sha256', material, 'platform-webhooks', 'endpoint-secret-encryption-v1', 32),
  );
  const id = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return { id, key };
}

/**
 * Endpoint secrets at rest. Signing needs the plaintext, so a hash (as for API keys) cannot work: they
 * are encrypted with AES-256-GCM under a key from the app's config (`WEBHOOKS_SECRET_KEY`, sensitive),
 * bound to their subscription id (GCM associated data) so a ciphertext copied to another row does not
 * decrypt. Format `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url): the key id lets an app move to a
 * new key while older rows still decrypt with the keys listed in `olderKeys`.
 */
export class WebhookSecretBox {
  private readonly current: Key;
  private readonly keys = new Map<string, Buffer>();

  constructor(encryptionKey: string, olderKeys: readonly string[] = []) {
    this.current = deriveKey(encryptionKey);
    for (const k of [this.current, ...olderKeys.map(deriveKey)]) this.keys.set(k.id, k.key);
  }

  seal(secret: string, subscriptionId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(subscriptionId));
    const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ct].map((b) => b.toString('base64url'));
    return ['v1', this.current.id, ...parts].join('.');
  }

  open(sealed: string, subscriptionId: string): string {
    const [version, keyId, iv, tag, ct] = sealed.split('.');
    const key = this.keys.get(keyId);
    if (version !== 'v1' || !key || !iv || !tag || ct === undefined) {
      throw new Error(`cannot open a webhook secret sealed with key ${keyId ?? '?'}`);
    }
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(subscriptionId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }
}
