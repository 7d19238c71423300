import { redactSecrets } from './redact';

describe('redactSecrets', () => {
  it.each([
    [
      'connect failed: postgres://verification:s3cr3t-pw@db:5432/platform',
      'connect failed: postgres://verification:***@db:5432/platform',
    ],
    ['Authorization: Bearer eyJhbGciOi.payload.sig', 'Authorization: Bearer ***'],
    ['header x-api-key=pk_live_abc123 was refused', 'header x-api-key=*** was refused'],
    ['API_KEY: cal_key_9f8e7d', 'API_KEY: ***'],
    ['cookie=session=abc; other', 'cookie=***; other'],
    ['GET /api/v1/document-uploads?token=abc.def&name=x', 'GET /api/v1/document-uploads?token=***&name=x'],
    ['callback?code=4/0AbC&state=s', 'callback?code=***&state=s'],
    ['POST /portal/v1/upload/Zx9_k-Q2rT/documents failed', 'POST /portal/v1/upload/***/documents failed'],
    ['X-Service-Signature: 9f86d0,60303a', 'X-Service-Signature: ***'],
    ['GET /Calendar/ics/ics_4Fq9Zk2LmN7x_Yb3cV8nM1q 404', 'GET /Calendar/ics/*** 404'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('keeps route patterns and ordinary text as they are', () => {
    for (const text of [
      'GET /portal/v1/upload/:token/documents 201 12ms',
      'GET /Calendar/ics/:token 200 9ms',
      'GET /Calendar/ics-feeds 200 2ms',
      'GET /api/v1/verification-cases/:id 200 3.1ms',
      'relay: 12 events published to calendar.event.changed.v1',
    ])
      expect(redactSecrets(text)).toBe(text);
  });
});
