import { rawRequest } from '@platform/testing';
import { assertValidRss, childrenOf } from '../feed-rules';
import { startStatus, type StatusFixture } from './status-fixture';

const HOSTILE = `<b>DB</b> & "quotes" 'apos' ]]> \u0001\u001B end`;

describe('public-status RSS feed (real PostgreSQL)', () => {
  let s: StatusFixture;
  let mgr: Record<string, string>;

  beforeAll(async () => {
    s = await startStatus('ps_rss');
    mgr = await s.business('acme');
    await s.manage(mgr, 'PUT', '/business', { name: 'Acme & Co', published: true });
    await s.manage(mgr, 'PUT', '/products/api', { name: 'API', published: true });
    await s.manage(mgr, 'PUT', '/products/api/resources/db', { name: 'Database', published: true });
    await s.manage(mgr, 'PUT', '/products/secret', { name: 'Hidden Product', published: false });
    await s.manage(mgr, 'PUT', '/products/secret/resources/vault', { name: 'Vault', published: true });
    const inc = await s.manage<{ id: string }>(mgr, 'POST', '/incidents', {
      name: HOSTILE,
      impact: 'major',
      body: 'Looking <into> it & more',
      components: ['api/db', 'secret/vault'],
    });
    await s.manage(mgr, 'POST', `/incidents/${inc.body.value.id}/updates`, {
      status: 'identified',
      body: 'Found it',
    });
    await s.manage(mgr, 'POST', '/incidents', {
      name: 'Hidden vault incident',
      impact: 'minor',
      body: 'nobody may see this',
      components: ['secret/vault'],
    });
    const m = await s.manage<{ id: string }>(mgr, 'POST', '/maintenances', {
      name: 'DB upgrade',
      body: 'Postgres 18',
      scheduledFor: '2030-01-01T00:00:00Z',
      scheduledUntil: '2030-01-01T01:00:00Z',
      components: ['api/db'],
    });
    await s.manage(mgr, 'POST', `/maintenances/${m.body.value.id}/start`);
  });

  afterAll(async () => {
    await s?.close();
  });

  it('is RSS 2.0 passing the offline W3C rules, escaped, with public things only', async () => {
    const res = await rawRequest(`${s.base}/PublicStatus/Rss?business=acme`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const ch = assertValidRss(res.text);
    expect(childrenOf(ch, 'title')[0].text).toBe('Acme & Co status');
    const items = childrenOf(ch, 'item');
    const titles = items.map((i) => childrenOf(i, 'title')[0].text);
    expect(titles).toEqual(
      expect.arrayContaining([
        `<b>DB</b> & "quotes" 'apos' ]]>  end [investigating]`,
        `<b>DB</b> & "quotes" 'apos' ]]>  end [identified]`,
        'DB upgrade [maintenance scheduled]',
        'DB upgrade [maintenance in_progress]',
      ]),
    );
    expect(items).toHaveLength(4);
    const guids = items.map((i) => childrenOf(i, 'guid')[0].text);
    expect(
      guids.filter((g) => /^urn:public-status:incident:inc_[a-z0-9]{12}:update:[12]$/.test(g)),
    ).toHaveLength(2);
    for (const leak of ['Hidden', 'secret', 'vault', 'Vault', 'nobody']) expect(res.text).not.toContain(leak);
    expect(res.text).toContain('Affected: api/db');
    expect(childrenOf(items[0], 'link')[0].text).toMatch(
      /^http:\/\/localhost:\d+\/PublicStatus\/StatusPage\?business=acme#(inc|mnt)_/,
    );
  });

  it('keeps its guids and bytes between requests, with an ETag and 304', async () => {
    const first = await rawRequest(`${s.base}/PublicStatus/Rss?business=acme`);
    const second = await rawRequest(`${s.base}/PublicStatus/Rss?business=acme`);
    expect(second.text).toBe(first.text);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await rawRequest(`${s.base}/PublicStatus/Rss?business=acme`, {
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
  });

  it('answers an unknown or unpublished business, and bad input, in the envelope', async () => {
    expect((await s.get('Rss?business=nobody')).status).toBe(404);
    expect((await s.get('Rss?business=ACME<')).status).toBe(400);
    expect((await s.get('Rss')).status).toBe(400);
    expect((await s.get('Rss?business=acme&x=1')).status).toBe(400);
    await s.manage(mgr, 'PUT', '/business', { published: false });
    const hidden = await s.get('Rss?business=acme');
    expect(hidden.status).toBe(404);
    expect(hidden.body.value.reason).toBe('PUBLIC_STATUS_BUSINESS_NOT_FOUND');
    await s.manage(mgr, 'PUT', '/business', { published: true });
  });
});
