import { auditRoutes } from '@platform/auth';
import { bodyTypeProblems } from '@platform/testing';
import { PublicStatusAppModule } from '../../src/app.module';
import { startStatus, type StatusFixture } from './status-fixture';

/**
 * Every POST, PUT and PATCH route of public status answers a body that is not JSON with 415 in the
 * envelope, unless it declares the type (the one-click unsubscribe takes the mail client's form).
 */
describe('public status refuses bodies that are not JSON (real PostgreSQL)', () => {
  let s: StatusFixture;
  beforeAll(async () => {
    s = await startStatus('ps_body_types', { MONITORING_TICK_MS: '0' });
  });
  afterAll(() => s?.close());

  it('answers 415 UNSUPPORTED_MEDIA_TYPE on every write route but those declaring the type', async () => {
    const { checked, problems } = await bodyTypeProblems(
      s.base,
      auditRoutes(PublicStatusAppModule.register({})),
    );
    expect(checked).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });
});
