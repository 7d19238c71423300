import { auditRoutes } from '@platform/auth';
import { bodyTypeProblems, rawRequest } from '@platform/testing';
import { LendingAppModule } from '../../src/app.module';
import { startLending, type LendingFixture } from './lending-fixture';

/**
 * A body that is not JSON, on a route that does not declare its type, is 415 in the envelope (issue 23:
 * a text/plain RunAccruals ran the organisation-wide accrual). The check is libs/envelope's, run first
 * by every app's guard; this walks every POST, PUT and PATCH route of lending.
 */
describe('lending refuses bodies that are not JSON (real PostgreSQL)', () => {
  let s: LendingFixture;
  beforeAll(async () => {
    s = await startLending('lending_body_types');
  });
  afterAll(() => s?.close());

  it('answers 415 UNSUPPORTED_MEDIA_TYPE on every write route but those declaring the type', async () => {
    const { checked, problems } = await bodyTypeProblems(s.base, auditRoutes(LendingAppModule.register({})));
    expect(checked).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });

  it('refuses a text/plain RunAccruals of a real key, localised, and still runs a bodiless or JSON one', async () => {
    const org = await s.organization('bank-body');
    const plain = await rawRequest(`${s.base}/Loans/RunAccruals`, {
      method: 'POST',
      headers: { ...org, 'content-type': 'text/plain', 'Language-Code': 'ru' },
      body: '{}',
    });
    expect(plain.status).toBe(415);
    expect(plain.json).toMatchObject({
      success: false,
      code: 415,
      value: { reason: 'UNSUPPORTED_MEDIA_TYPE', contentType: 'text/plain', accepted: ['application/json'] },
    });
    expect(plain.json?.error).toBe('Этот тип содержимого не поддерживается.');
    const form = await rawRequest(`${s.base}/Loans/RunAccruals`, {
      method: 'POST',
      headers: { ...org, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'asOf=2020-01-01',
    });
    expect(form.status).toBe(415);
    // A bodiless POST (no Content-Type, no body) and an empty one with any type still run.
    const bare = await rawRequest(`${s.base}/Loans/RunAccruals`, {
      method: 'POST',
      headers: { ...org, 'content-length': '0' },
    });
    expect(bare.status).toBe(200);
    const empty = await rawRequest(`${s.base}/Loans/RunAccruals`, {
      method: 'POST',
      headers: { ...org, 'content-type': 'text/plain', 'content-length': '0' },
    });
    expect(empty.status).toBe(200);
    const json = await s.call(org, 'POST', '/Loans/RunAccruals', {});
    expect(json.status).toBe(200);
  });
});
