import { withClient } from '@platform/testing';
import { STUB_CREDENTIAL } from '../../src/applications/providers/stub-providers';
import { startLending, type LendingFixture } from './lending-fixture';
import { checked, insertCustomer, stepsOf, submitted, type AppView } from './applications-helpers';

type Page<T> = { items: T[]; total: number };
type Call = {
  id: string;
  applicationId: string | null;
  customerId: string | null;
  checkStep: string | null;
  provider: string;
  operation: string;
  mode: string;
  status: string;
  durationMs: number;
  request: Record<string, unknown> | null;
  response: Record<string, unknown> | null;
  error: string | null;
  startedAt: string;
};

const ALL_PASSED = {
  identity_verification: 'passed',
  credit_bureau: 'passed',
  aml_screening: 'passed',
  scoring: 'passed',
  affordability: 'passed',
};

describe('applications: check steps on the stub providers (real PostgreSQL)', () => {
  let s: LendingFixture;
  let bank: Record<string, string>;
  let customer: string;

  beforeAll(async () => {
    s = await startLending('lending_app_checks');
    bank = await s.organization('bank-c');
    customer = await insertCustomer(s, 'bank-c');
  });

  afterAll(async () => {
    await s?.close();
  });

  /** The documented magic inputs (docs/lending/applications.md) and what each produces. */
  const MAGIC: [string, string, Record<string, string>, string[] | null, string | null][] = [
    ['900101300500', 'approved', ALL_PASSED, ['ALL_CHECKS_PASSED', 'SCORE_ABOVE_THRESHOLD'], null],
    [
      '900101300511',
      'declined',
      { identity_verification: 'failed' },
      ['IDENTITY_NOT_CONFIRMED'],
      'IDENTITY_MISMATCH',
    ],
    ['900101300512', 'under_review', { identity_verification: 'error' }, null, 'PROVIDER_TIMEOUT'],
    ['900101300513', 'under_review', { identity_verification: 'needs_review' }, null, 'IDENTITY_NOT_FOUND'],
    ['900101300521', 'under_review', { credit_bureau: 'needs_review' }, null, 'NO_CREDIT_RECORD'],
    [
      '900101300522',
      'declined',
      { credit_bureau: 'failed', scoring: 'needs_review' },
      ['ADVERSE_CREDIT_HISTORY'],
      'SERIOUS_DELINQUENCY',
    ],
    ['900101300523', 'under_review', { credit_bureau: 'error' }, null, 'PROVIDER_TIMEOUT'],
    ['900101300531', 'declined', { aml_screening: 'failed' }, ['AML_MATCH'], 'SANCTIONS_HIT'],
    ['900101300532', 'under_review', { aml_screening: 'needs_review' }, null, 'POSSIBLE_MATCH'],
    ['900101300533', 'under_review', { aml_screening: 'error' }, null, 'PROVIDER_TIMEOUT'],
    ['900101300541', 'under_review', {}, null, null],
    ['900101300542', 'declined', { scoring: 'failed' }, ['SCORE_TOO_LOW'], 'SCORE_TOO_LOW'],
    ['900101300543', 'under_review', { scoring: 'error' }, null, 'PROVIDER_TIMEOUT'],
  ];

  it.each(MAGIC)('national id %s -> %s', async (nationalId, status, steps, reasons, reasonCode) => {
    const app = await checked(s, bank, customer, nationalId);
    expect(app.status).toBe(status);
    expect(stepsOf(app)).toEqual({ ...ALL_PASSED, ...steps });
    expect(app.decision?.reasons.map((r) => r.code) ?? null).toEqual(reasons);
    expect(app.decision?.decidedBy ?? null).toBe(reasons ? 'rules' : null);
    const odd =
      app.checks.find((c) => c.status !== 'passed' && c.step !== 'scoring') ??
      app.checks.find((c) => c.status !== 'passed');
    expect(odd?.reasonCode ?? null).toBe(reasonCode);
    for (const c of app.checks) {
      expect(c.attempts).toBe(1);
      expect(c.startedAt && c.completedAt).toBeTruthy();
      expect(c.provider).toMatch(/^(stub-|in-house-)/);
    }
  });

  it('scores with the factors behind the score, and without bureau data as a thin file', async () => {
    const clean = await checked(s, bank, customer, '900101300500');
    expect(clean.checks.find((c) => c.step === 'scoring')?.result).toEqual({
      score: 720,
      modelVersion: 'stub-1',
      factors: [
        { code: 'CREDIT_HISTORY_LENGTH', impact: 60 },
        { code: 'PAYMENT_DISCIPLINE', impact: 45 },
        { code: 'DEBT_TO_INCOME', impact: 15 },
      ],
    });
    const thin = await checked(s, bank, customer, '900101300523');
    expect(thin.checks.find((c) => c.step === 'scoring')?.result).toMatchObject({ score: 610 });
    expect(clean.checks.find((c) => c.step === 'affordability')?.result).toEqual({
      installment: 94_560,
      referenceAnnualRateBps: 2400,
      debtToIncome: 0.3891,
      disposableIncome: 305_440,
      outcome: 'affordable',
    });
  });

  it('reads affordability from the declared income and expenses', async () => {
    const tight = await checked(s, bank, customer, '900101300500', {
      applicant: { nationalId: '900101300500', monthlyIncome: 500_000, monthlyExpenses: 200_000 },
    });
    expect([tight.status, stepsOf(tight).affordability]).toEqual(['under_review', 'needs_review']);
    const over = await checked(s, bank, customer, '900101300500', {
      applicant: { nationalId: '900101300500', monthlyIncome: 500_000, monthlyExpenses: 300_000 },
    });
    expect([over.status, stepsOf(over).affordability]).toEqual(['declined', 'failed']);
    expect(over.decision?.reasons.map((r) => r.code)).toEqual(['NOT_AFFORDABLE']);
  });

  it('retries a step that timed out (RunCheck): the stub answers the second attempt', async () => {
    const app = await checked(s, bank, customer, '900101300523');
    expect(stepsOf(app).credit_bureau).toBe('error');
    // Only a step in error is retried; the text names the step in the request's language.
    const wrong = await s.call(
      bank,
      'POST',
      '/Applications/RunCheck',
      { applicationId: app.id, step: 'aml_screening' },
      'ru',
    );
    expect([wrong.status, wrong.body.value.reason]).toEqual([409, 'APPLICATION_CHECK_NOT_RETRYABLE']);
    expect(wrong.body.error).toContain('«Проверка по спискам ПОД/ФТ»');
    const retried = await s.call<AppView>(bank, 'POST', '/Applications/RunCheck', {
      applicationId: app.id,
      step: 'credit_bureau',
    });
    expect(retried.status).toBe(200);
    const bureau = retried.body.value.checks.find((c) => c.step === 'credit_bureau');
    expect(bureau).toMatchObject({
      status: 'passed',
      attempts: 2,
      reasonCode: null,
      result: { record: 'found' },
    });
    // The decision stays with a person.
    expect(retried.body.value.status).toBe('under_review');
    const calls = await s.call<Page<Call>>(
      bank,
      'GET',
      `/Applications/GetExternalCalls?ApplicationId=${app.id}`,
    );
    expect(
      calls.body.value.items.filter((c) => c.checkStep === 'credit_bureau').map((c) => c.status),
    ).toEqual(['timeout', 'ok']);
    const again = await s.call(bank, 'POST', '/Applications/RunCheck', {
      applicationId: app.id,
      step: 'credit_bureau',
    });
    expect(again.status).toBe(409);
  });

  it('logs every provider call with redacted bodies, readable page by page', async () => {
    const app = await checked(s, bank, customer, '900101300512');
    const page = await s.call<Page<Call>>(
      bank,
      'GET',
      `/Applications/GetExternalCalls?ApplicationId=${app.id}&Offset=0&Count=10`,
    );
    expect(page.status).toBe(200);
    expect(page.body.value.total).toBe(4);
    const [identity, bureau, aml, scoring] = page.body.value.items;
    expect(page.body.value.items.map((c) => [c.checkStep, c.provider, c.mode, c.status])).toEqual([
      ['identity_verification', 'stub-identity', 'stub', 'timeout'],
      ['credit_bureau', 'stub-credit-bureau', 'stub', 'ok'],
      ['aml_screening', 'stub-aml', 'stub', 'ok'],
      ['scoring', 'stub-scoring', 'stub', 'ok'],
    ]);
    for (const c of page.body.value.items) {
      expect(c).toMatchObject({ applicationId: app.id, customerId: customer });
      expect(c.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(identity).toMatchObject({
      operation: 'POST /v1/identity/verifications',
      request: { apiKey: '[REDACTED]', nationalId: '********0512', customerReference: customer },
      response: null,
      error: 'simulated timeout (stub)',
    });
    expect(bureau.request).toEqual({
      login: 'stub-lender',
      password: '[REDACTED]',
      subject: { nationalId: '********0512' },
      currency: 'KZT',
      purpose: 'credit_application',
    });
    expect(bureau.response).toMatchObject({ record: 'found', subject: { nationalId: '********0512' } });
    expect(aml.request).toMatchObject({ headers: { Authorization: '[REDACTED]' } });
    expect(scoring.request).toMatchObject({ token: '[REDACTED]', applicant: { nationalId: '********0512' } });
    expect(scoring.response).toMatchObject({ score: 720 });

    // Redacted before it was stored: the database holds neither the id nor the credential.
    const stored = await withClient(s.db.url, async (c) =>
      JSON.stringify(
        (
          await c.query(
            'SELECT request, response, error FROM lending.external_calls WHERE application_id = $1',
            [app.id],
          )
        ).rows,
      ),
    );
    expect(stored).not.toContain('900101300512');
    expect(stored).not.toContain(STUB_CREDENTIAL);
    expect(JSON.stringify(page.body)).not.toContain('900101300512');

    const second = await s.call<Page<Call>>(
      bank,
      'GET',
      `/Applications/GetExternalCalls?ApplicationId=${app.id}&Offset=2&Count=1`,
    );
    expect([second.body.value.total, second.body.value.items.map((c) => c.id)]).toEqual([4, [aml.id]]);
    // The organization's whole log: every application's calls.
    const all = await s.call<Page<Call>>(bank, 'GET', '/Applications/GetExternalCalls?Count=1');
    expect(all.body.value.total).toBeGreaterThan(4);
    // The application itself keeps the national id masked too.
    expect(app.applicant.nationalIdMasked).toBe('********0512');
  });

  it('refuses a second run while one is going, and takes over a run that died', async () => {
    const id = await submitted(s, bank, customer);
    // A run that claimed the checks a minute ago is still within its lease.
    await withClient(s.db.url, (c) =>
      c.query(
        `UPDATE lending.applications SET status = 'checks_in_progress', checks_started_at = now() - interval '1 minute' WHERE id = $1`,
        [id],
      ),
    );
    const busy = await s.call(bank, 'POST', '/Applications/RunChecks', { applicationId: id }, 'es');
    expect([busy.status, busy.body.value.reason]).toEqual([409, 'APPLICATION_CHECKS_RUNNING']);
    expect(busy.body.error).toMatch(/ya están en curso/);
    // One whose claim is older than the lease (5 minutes) died: the next RunChecks takes it over.
    await withClient(s.db.url, (c) =>
      c.query(
        `UPDATE lending.applications SET checks_started_at = now() - interval '10 minutes' WHERE id = $1`,
        [id],
      ),
    );
    const taken = await s.call<AppView>(bank, 'POST', '/Applications/RunChecks', { applicationId: id });
    expect([taken.status, taken.body.value.status]).toEqual([200, 'approved']);
    const history = await s.call<
      Page<{ fromStatus: string; toStatus: string; action: string; reason: string | null }>
    >(bank, 'GET', `/Applications/GetApplicationHistory?ApplicationId=${id}`);
    expect(history.body.value.items.slice(-2)).toEqual([
      expect.objectContaining({
        fromStatus: 'checks_in_progress',
        toStatus: 'checks_in_progress',
        action: 'RunChecks',
        reason: 'took over a check run that did not finish',
      }),
      expect.objectContaining({
        fromStatus: 'checks_in_progress',
        toStatus: 'approved',
        action: 'ChecksCompleted',
      }),
    ]);
  });

  it('answers GetExternalCalls for an unknown application with 404', async () => {
    const res = await s.call(
      bank,
      'GET',
      '/Applications/GetExternalCalls?ApplicationId=00000000-0000-4000-8000-000000000000',
    );
    expect([res.status, res.body.value.reason]).toEqual([404, 'APPLICATION_NOT_FOUND']);
  });
});
