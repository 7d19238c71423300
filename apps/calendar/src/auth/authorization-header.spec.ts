import { MAX_AUTHORIZATION_CHARS, MAX_BASIC_PART_CHARS, parseAuthorization } from './authorization-header';

const basic = (pair: string | Buffer) =>
  `Basic ${(typeof pair === 'string' ? Buffer.from(pair, 'utf8') : pair).toString('base64')}`;

describe('parseAuthorization (the dav scheme)', () => {
  it('reads a Basic pair, the password keeping every colon after the first', () => {
    expect(parseAuthorization(basic('dav-0123456789abcdef0123:s3cr:et'))).toEqual({
      kind: 'basic',
      username: 'dav-0123456789abcdef0123',
      password: 's3cr:et',
    });
  });

  it('takes the scheme in any case, extra blanks, and base64 without its padding', () => {
    const encoded = Buffer.from('u:p1').toString('base64');
    expect(encoded.endsWith('=')).toBe(true);
    for (const header of [`basic ${encoded}`, `BASIC \t ${encoded} `, `Basic ${encoded.replace(/=+$/, '')}`])
      expect(parseAuthorization(header)).toEqual({ kind: 'basic', username: 'u', password: 'p1' });
  });

  it('decodes UTF-8 (RFC 7617 charset)', () => {
    expect(parseAuthorization(basic('Jürgen:пароль'))).toEqual({
      kind: 'basic',
      username: 'Jürgen',
      password: 'пароль',
    });
  });

  it.each([
    ['no credentials after the scheme', 'Basic'],
    ['blank credentials', 'Basic    '],
    ['characters outside base64', 'Basic dXNlcjpw!XNz'],
    ['the URL-safe alphabet', `Basic ${Buffer.from('u:??>>').toString('base64url')}`],
    ['a misplaced padding', 'Basic dX=Nlcjpw'],
    ['a lone trailing character', 'Basic dXNlcjpwYXNzQ'],
    ['no colon', basic('justausername')],
    ['an empty username', basic(':password')],
    ['an empty password', basic('user:')],
    ['a NUL in the username', basic('us\u0000er:password')],
    ['a NUL in the password', basic('user:pass\u0000word')],
    ['a line break', basic('user:pass\nword')],
    ['DEL', basic('user:pass\u007f')],
    ['bytes that are not UTF-8', basic(Buffer.from([0x75, 0x3a, 0xff, 0xfe]))],
    ['an encoded surrogate', basic(Buffer.from([0x75, 0x3a, 0xed, 0xa0, 0x80]))],
    ['a password too long', basic(`user:${'p'.repeat(MAX_BASIC_PART_CHARS + 1)}`)],
    ['a username too long', basic(`${'u'.repeat(MAX_BASIC_PART_CHARS + 1)}:p`)],
    ['a huge header', `Basic ${'A'.repeat(MAX_AUTHORIZATION_CHARS)}`],
    ['a Bearer without a token', 'Bearer'],
    ['a Bearer token with a blank inside', 'Bearer abc def'],
    ['a Bearer token with a quote', 'Bearer "abc"'],
    ['no scheme at all', '   '],
    ['a scheme starting with a digit', '1Basic abc'],
  ])('calls %s malformed', (_, header) => {
    expect(parseAuthorization(header)).toEqual({ kind: 'malformed' });
  });

  it('allows parts of exactly the longest length, counted in characters', () => {
    const password = '😀'.repeat(MAX_BASIC_PART_CHARS);
    expect(parseAuthorization(basic(`u:${password}`))).toEqual({ kind: 'basic', username: 'u', password });
  });

  it('reads a Bearer token (a session JWT)', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln-_~+/=';
    expect(parseAuthorization(`Bearer ${jwt}`)).toEqual({ kind: 'bearer', token: jwt });
    expect(parseAuthorization(`bearer  ${jwt}`)).toEqual({ kind: 'bearer', token: jwt });
  });

  it('calls another scheme unsupported', () => {
    expect(parseAuthorization('Digest username="u", realm="Calendar"')).toEqual({ kind: 'unsupported' });
    expect(parseAuthorization('Negotiate YIIG')).toEqual({ kind: 'unsupported' });
  });

  it('never throws, whatever the bytes', () => {
    for (let i = 0; i < 2000; i++) {
      const bytes = Buffer.from(Array.from({ length: (i % 40) + 1 }, (_, j) => (i * 31 + j * 17) % 256));
      const header = i % 2 ? basic(bytes) : `Basic ${bytes.toString('latin1')}`;
      expect(['basic', 'malformed']).toContain(parseAuthorization(header).kind);
    }
  });
});
