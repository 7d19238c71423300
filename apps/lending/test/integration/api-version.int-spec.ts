import { rawRequest } from '@platform/testing';
import { startLending, type LendingFixture } from './lending-fixture';

describe('lending Api-Version header (real PostgreSQL)', () => {
  let s: LendingFixture;
  let key: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_version');
    key = await s.organization('bank-a');
  });

  afterAll(async () => {
    await s?.close();
  });

  const get = (headers: Record<string, string>) =>
    rawRequest(`${s.base}/Applications/GetApplications`, { headers: { ...key, ...headers } });

  it('serves version 1 by default and when asked, and says so in the answer', async () => {
    const variants: Record<string, string>[] = [{}, { 'Api-Version': '1' }, { 'Api-Version': 'v1' }];
    for (const headers of variants) {
      const r = await get(headers);
      expect([r.status, r.headers['api-version']]).toEqual([200, '1']);
    }
  });

  it('refuses an unknown version with a localised 400 that lists the served ones, before the route runs', async () => {
    const r = await get({ 'Api-Version': '2', 'Language-Code': 'ru' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      success: false,
      value: { reason: 'LENDING_API_VERSION_UNSUPPORTED', supportedVersions: ['1'] },
    });
    expect((r.json as { error: string }).error).toBe(
      'Версия API «2» не поддерживается. Поддерживаемые версии: 1.',
    );
    // Even without credentials: the version is checked first, and nothing else is said.
    const anonymous = await rawRequest(`${s.base}/Applications/GetApplications`, {
      headers: { 'Api-Version': 'latest\u00ff' },
    });
    expect(anonymous.status).toBe(400);
    expect(JSON.stringify(anonymous.json)).toContain('latest?'); // non-ASCII is not echoed
  });
});
