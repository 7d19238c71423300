import { createHmac, timingSafeEqual } from 'node:crypto';

/** The delivery headers of the verification spec, used by every service that sends webhooks. */
export const WebhookHeader = {
  Event: 'X-Service-Event',
  Delivery: 'X-Service-Delivery',
  Timestamp: 'X-Service-Timestamp',
  Signature: 'X-Service-Signature',
} as const;

/** Default maximum age (and future skew) of `X-Service-Timestamp` a receiver accepts: 5 minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * hex(HMAC-SHA256(secret, `${timestamp}.${rawBody}`)). The key is the secret string's UTF-8 bytes, the
 * `whsec_` prefix included, so a receiver passes the secret exactly as it was shown.
 */
export function computeWebhookSignature(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

export interface SignInput {
  /** Current secret first; during a rotation, the previous one second. */
  secrets: readonly string[];
  eventType: string;
  deliveryId: string;
  /** Seconds since the epoch. */
  timestamp: number;
  rawBody: string;
}

/**
 * The four headers of one attempt. `X-Service-Signature` is a comma-separated list of hex signatures,
 * one per valid secret (current first): outside a rotation it is exactly one bare hex HMAC, as the spec
 * describes, so a receiver that compares the header with its own HMAC works unchanged.
 */
export function signWebhook(input: SignInput): Record<string, string> {
  if (!input.secrets.length) throw new Error('no secret to sign with');
  return {
    [WebhookHeader.Event]: input.eventType,
    [WebhookHeader.Delivery]: input.deliveryId,
    [WebhookHeader.Timestamp]: String(input.timestamp),
    [WebhookHeader.Signature]: input.secrets
      .map((s) => computeWebhookSignature(s, input.timestamp, input.rawBody))
      .join(','),
  };
}

export type WebhookVerification =
  | { ok: true; timestamp: number; eventType: string | undefined; deliveryId: string | undefined }
  | {
      ok: false;
      reason: 'missing-header' | 'bad-timestamp' | 'timestamp-out-of-tolerance' | 'signature-mismatch';
    };

/** Node's IncomingHttpHeaders, a plain record in any case, or a fetch `Headers`. */
export type HeaderSource =
  Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const lower = name.toLowerCase();
  const key = Object.keys(record).find((k) => k.toLowerCase() === lower);
  const v = key === undefined ? undefined : record[key];
  return Array.isArray(v) ? v.join(',') : v;
}

const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

/**
 * Verifies a received delivery: the timestamp is within `toleranceSeconds` of now (either side), and
 * some signature in the header matches some given secret (pass both secrets while rotating on the
 * receiving side). Comparisons are constant-time. Accepts `v1=` prefixes and spaces, so it also reads
 * a Standard-Webhooks-style list.
 */
export function verifyWebhookSignature(
  secrets: string | readonly string[],
  headers: HeaderSource,
  rawBody: string | Buffer,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  nowMs = Date.now(),
): WebhookVerification {
  const ts = header(headers, WebhookHeader.Timestamp);
  const sig = header(headers, WebhookHeader.Signature);
  if (!ts || !sig) return { ok: false, reason: 'missing-header' };
  if (!/^\d{1,12}$/.test(ts.trim())) return { ok: false, reason: 'bad-timestamp' };
  const timestamp = Number(ts.trim());
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) {
    return { ok: false, reason: 'timestamp-out-of-tolerance' };
  }
  const given = sig
    .split(/[\s,]+/)
    .map((s) => s.replace(/^v1=/, '').toLowerCase())
    .filter((s) => HEX_SIGNATURE.test(s))
    .map((s) => Buffer.from(s, 'hex'));
  let match = false;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = Buffer.from(computeWebhookSignature(secret, timestamp, rawBody), 'hex');
    // No early exit: the time taken does not tell which secret or signature matched.
    for (const g of given) match = timingSafeEqual(expected, g) || match;
  }
  if (!match) return { ok: false, reason: 'signature-mismatch' };
  return {
    ok: true,
    timestamp,
    eventType: header(headers, WebhookHeader.Event),
    deliveryId: header(headers, WebhookHeader.Delivery),
  };
}
