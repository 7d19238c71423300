import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Links in subscriber mail, signed with SUBSCRIPTION_TOKEN_SECRET (HMAC-SHA256, base64url):
 * - confirm: `c.<subscriber public id>.<expiry, unix seconds>.<sig>`, the signature also covering the
 *   subscriber's current confirmation nonce. Confirming clears the nonce, so a link works once; a new
 *   subscribe request draws a new nonce, so older links die; past the expiry it is refused.
 * - unsubscribe: `u.<subscriber public id>.<sig>`. No expiry: RFC 8058 one-click must work from any
 *   mail ever sent, and unsubscribing is idempotent.
 * Nothing secret is stored: the mail worker renders the links when it sends.
 */
export class SubscriptionTokens {
  constructor(private readonly secret: string) {}

  static nonce(): string {
    return randomBytes(16).toString('base64url');
  }

  confirm(publicId: string, expiresAt: Date, nonce: string): string {
    const exp = Math.floor(expiresAt.getTime() / 1000);
    return `c.${publicId}.${exp}.${this.sign(`confirm.${publicId}.${exp}.${nonce}`)}`;
  }

  unsubscribe(publicId: string): string {
    return `u.${publicId}.${this.sign(`unsubscribe.${publicId}`)}`;
  }

  /** The parts of a confirm token; the signature is checked by `confirmMatches` once the nonce is read. */
  static parseConfirm(token: string): { publicId: string; exp: number; sig: string } | null {
    const m = /^c\.(sub_[a-z2-7]{20})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    return m ? { publicId: m[1], exp: Number(m[2]), sig: m[3] } : null;
  }

  confirmMatches(t: { publicId: string; exp: number; sig: string }, nonce: string): boolean {
    return this.equal(t.sig, this.sign(`confirm.${t.publicId}.${t.exp}.${nonce}`));
  }

  /** The subscriber's public id when the unsubscribe token is genuine. */
  verifyUnsubscribe(token: string): string | null {
    const m = /^u\.(sub_[a-z2-7]{20})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return null;
    return this.equal(m[2], this.sign(`unsubscribe.${m[1]}`)) ? m[1] : null;
  }

  private sign(message: string): string {
    return createHmac('sha256', this.secret).update(message).digest('base64url');
  }

  private equal(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** A subscriber's public id: `sub_` + 20 base32 characters (100 bits; it sits in links). */
export function subscriberPublicId(): string {
  let out = '';
  for (const b of randomBytes(20)) out += ALPHABET[b & 31];
  return `sub_${out}`;
}

export const SUBSCRIPTION_TOKEN_PATTERN = /^[cu]\.sub_[a-z2-7]{20}\.[0-9A-Za-z_.-]{1,80}$/;
