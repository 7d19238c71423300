import { REDACTED, redactPath, redactQuery, redactTarget } from './tracing.redact';

describe('URL redaction for spans', () => {
  it('replaces opaque tokens in paths and keeps names, short ids and UUIDs', () => {
    const token = `vup_${'Ab3_-'.repeat(9)}`;
    expect(redactPath(`/portal/v1/upload/${token}/documents`)).toBe(
      `/portal/v1/upload/${REDACTED}/documents`,
    );
    expect(redactPath('/api/v1/verification-cases/0b6c3a2e-2d1f-4c57-9a36-3f0f5c1e9d11')).toBe(
      '/api/v1/verification-cases/0b6c3a2e-2d1f-4c57-9a36-3f0f5c1e9d11',
    );
    expect(redactPath('/Calendar/upsert')).toBe('/Calendar/upsert');
    expect(redactPath('/PublicStatus/Products/crm')).toBe('/PublicStatus/Products/crm');
  });

  it('replaces the values of credential query parameters, whatever their case', () => {
    expect(redactQuery('token=abc&lang=en')).toBe(`token=${REDACTED}&lang=en`);
    expect(redactQuery('X-Amz-Signature=ff&Api_Key=k&page=2&flag')).toBe(
      `X-Amz-Signature=${REDACTED}&Api_Key=${REDACTED}&page=2&flag`,
    );
    expect(redactTarget('/PublicStatus/Unsubscribe?token=s3cr3t')).toEqual({
      path: '/PublicStatus/Unsubscribe',
      query: `token=${REDACTED}`,
    });
    expect(redactTarget('/health/ready')).toEqual({ path: '/health/ready' });
  });
});
