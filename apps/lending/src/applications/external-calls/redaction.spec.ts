import { REDACTED, maskIdentifier, redact, redactText } from './redaction';

describe('redaction of the external-call log', () => {
  it('removes secrets by key, whatever their case, separators or type', () => {
    const out = redact({
      apiKey: 'k-1',
      'X-Api-Key': 'k-2',
      password: 'p',
      client_secret: 's',
      accessToken: { nested: true },
      headers: { Authorization: 'Bearer abc.def', Cookie: 'sid=1' },
      PIN: 1234,
      tokenType: 'bearer',
      amount: 100,
    });
    expect(out).toEqual({
      apiKey: REDACTED,
      'X-Api-Key': REDACTED,
      password: REDACTED,
      client_secret: REDACTED,
      accessToken: REDACTED,
      headers: { Authorization: REDACTED, Cookie: REDACTED },
      PIN: REDACTED,
      tokenType: 'bearer',
      amount: 100,
    });
  });

  it('masks identity numbers but their last four characters, keeping the length', () => {
    expect(
      redact({ subject: { nationalId: '900101300500', passport_number: 'N1234567', iin: 12345 } }),
    ).toEqual({
      subject: { nationalId: '********0500', passport_number: '****4567', iin: '*2345' },
    });
    expect(maskIdentifier('1234')).toBe('****');
    expect(maskIdentifier('')).toBe('');
  });

  it('keeps the scheme of a credential inside text, and masks long digit runs in free text', () => {
    expect(redact({ note: 'sent Bearer eyJhbGciOi.x-y_z with it' })).toEqual({
      note: `sent Bearer ${REDACTED} with it`,
    });
    expect(redactText('no record for 900101300500 (Basic dXNlcjpwYXNz)')).toBe(
      `no record for ********0500 (Basic ${REDACTED})`,
    );
  });

  it('walks arrays, leaves the input unchanged and keeps a __proto__ key as data', () => {
    const input = JSON.parse('{"items":[{"token":"t"},{"ok":1}],"__proto__":{"secret":"s"}}') as object;
    const out = redact(input) as Record<string, unknown>;
    expect(out.items).toEqual([{ token: REDACTED }, { ok: 1 }]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ secret: REDACTED });
    expect((input as { items: { token: string }[] }).items[0].token).toBe('t');
    expect(redact(null)).toBeNull();
  });

  it('cuts what is nested too deep', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 30; i++) deep = { d: deep };
    expect(JSON.stringify(redact(deep))).toContain(REDACTED);
  });
});
