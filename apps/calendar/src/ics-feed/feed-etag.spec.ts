import { noneMatch, strongEtag } from './feed-etag';

describe('feed ETag', () => {
  const etag = strongEtag('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');

  it('is strong, quoted, and changes with any byte', () => {
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(strongEtag('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n')).toBe(etag);
    expect(strongEtag('BEGIN:VCALENDAR\r\nEND:VCALENDAR\n')).not.toBe(etag);
  });

  it('matches If-None-Match by weak comparison, lists and *', () => {
    expect(noneMatch(etag, etag)).toBe(true);
    expect(noneMatch(`W/${etag}`, etag)).toBe(true);
    expect(noneMatch(`"x", ${etag}`, etag)).toBe(true);
    expect(noneMatch(['"x"', etag], etag)).toBe(true);
    expect(noneMatch('*', etag)).toBe(true);
    expect(noneMatch(undefined, etag)).toBe(false);
    expect(noneMatch('"x"', etag)).toBe(false);
    expect(noneMatch(etag.slice(1, -1), etag)).toBe(false);
    expect(noneMatch(`${'"a",'.repeat(3000)}${etag}`, etag)).toBe(false);
  });
});
