import { createHmac, timingSafeEqual } from 'node:crypto';

/** What an rsvp link stands for: one attendee of one event of one account. */
export interface RsvpClaim {
  accountId: string;
  eventId: string;
  /** The guest's lower-cased email (the attendee key). */
  email: string;
  /** Expiry in ms since the epoch; 0: none (an event without times). */
  expiresAt: number;
}

const PURPOSE = 'rsvp';
const MAX_TOKEN_CHARS = 2048;

/**
 * Signed, single-purpose rsvp links for external guests (decision 0017): `v1.<claim>.<mac>`, the claim
 * base64url JSON, the MAC HMAC-SHA256 with CALENDAR_RSVP_SECRET over the purpose and the claim, so a
 * token made for anything else, or changed in any byte, fails. Compared in constant time.
 */
export class RsvpTokens {
  constructor(private readonly secret: string) {}

  sign(c: RsvpClaim): string {
    const claim = Buffer.from(JSON.stringify([c.accountId, c.eventId, c.email, c.expiresAt])).toString(
      'base64url',
    );
    return `v1.${claim}.${this.mac(claim).toString('base64url')}`;
  }

  /** The claim, or why not: `invalid` (malformed, tampered, another purpose) or `expired`. */
  verify(token: string, now = Date.now()): RsvpClaim | 'invalid' | 'expired' {
    if (token.length > MAX_TOKEN_CHARS) return 'invalid';
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== 'v1') return 'invalid';
    const [, claim, mac] = parts;
    const sent = Buffer.from(mac, 'base64url');
    const expected = this.mac(claim);
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return 'invalid';
    let fields: unknown;
    try {
      fields = JSON.parse(Buffer.from(claim, 'base64url').toString('utf8'));
    } catch {
      return 'invalid';
    }
    if (
      !Array.isArray(fields) ||
      fields.length !== 4 ||
      !fields.slice(0, 3).every((f) => typeof f === 'string') ||
      typeof fields[3] !== 'number'
    )
      return 'invalid';
    const [accountId, eventId, email, expiresAt] = fields as [string, string, string, number];
    if (expiresAt !== 0 && now > expiresAt) return 'expired';
    return { accountId, eventId, email, expiresAt };
  }

  private mac(claim: string): Buffer {
    return createHmac('sha256', this.secret).update(`${PURPOSE}\n${claim}`).digest();
  }
}
