import { createHmac } from 'node:crypto';
import {
  computeWebhookSignature,
  signWebhook,
  verifyWebhookSignature,
  WebhookHeader,
} from './webhook-signature';

describe('webhook signature', () => {
  const body = '{"deliveryId":"d1","eventId":"e1","event":"case.status_changed","data":{"x":1}}';
  const now = 1_750_000_000_000;
  const ts = now / 1000;

  it('is hex HMAC-SHA256 over `${timestamp}.${rawBody}`', () => {
    const expected = createHmac('sha256', 'whsec_abc').update(`${ts}.${body}`).digest('hex');
    expect(computeWebhookSignature('whsec_abc', ts, body)).toBe(expected);
    const h = signWebhook({
      secrets: ['whsec_abc'],
      eventType: 'case.status_changed',
      deliveryId: 'd1',
      timestamp: ts,
      rawBody: body,
    });
    expect(h[WebhookHeader.Signature]).toBe(expected);
    expect(h[WebhookHeader.Timestamp]).toBe(String(ts));
  });

  it('verifies, in any header case, and refuses tampering, age and the wrong secret', () => {
    const h = signWebhook({ secrets: ['s1'], eventType: 'e', deliveryId: 'd', timestamp: ts, rawBody: body });
    const lower = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifyWebhookSignature('s1', lower, body, 300, now)).toMatchObject({
      ok: true,
      deliveryId: 'd',
      eventType: 'e',
    });
    expect(verifyWebhookSignature('s1', new Headers(h), Buffer.from(body), 300, now).ok).toBe(true);
    expect(verifyWebhookSignature('s1', h, `${body} `, 300, now)).toEqual({
      ok: false,
      reason: 'signature-mismatch',
    });
    expect(verifyWebhookSignature('s2', h, body, 300, now)).toEqual({
      ok: false,
      reason: 'signature-mismatch',
    });
    expect(verifyWebhookSignature('s1', h, body, 300, now + 301_000)).toEqual({
      ok: false,
      reason: 'timestamp-out-of-tolerance',
    });
    expect(verifyWebhookSignature('s1', h, body, 300, now - 301_000).ok).toBe(false);
    expect(verifyWebhookSignature('s1', { ...h, [WebhookHeader.Timestamp]: '12x' }, body, 300, now)).toEqual({
      ok: false,
      reason: 'bad-timestamp',
    });
    expect(verifyWebhookSignature('s1', {}, body, 300, now)).toEqual({ ok: false, reason: 'missing-header' });
  });

  it('during a rotation carries both signatures, each verifiable alone', () => {
    const h = signWebhook({
      secrets: ['new', 'old'],
      eventType: 'e',
      deliveryId: 'd',
      timestamp: ts,
      rawBody: body,
    });
    const parts = h[WebhookHeader.Signature].split(',');
    expect(parts).toEqual([
      computeWebhookSignature('new', ts, body),
      computeWebhookSignature('old', ts, body),
    ]);
    expect(verifyWebhookSignature('new', h, body, 300, now).ok).toBe(true);
    expect(verifyWebhookSignature('old', h, body, 300, now).ok).toBe(true);
    expect(verifyWebhookSignature(['other', 'old'], h, body, 300, now).ok).toBe(true);
    expect(verifyWebhookSignature('other', h, body, 300, now).ok).toBe(false);
    // Standard-Webhooks-like spelling is read too.
    const v1 = { ...h, [WebhookHeader.Signature]: parts.map((p) => `v1=${p}`).join(' ') };
    expect(verifyWebhookSignature('old', v1, body, 300, now).ok).toBe(true);
  });
});
