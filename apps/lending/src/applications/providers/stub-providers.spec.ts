import type { CreditReport } from './check-providers';
import { InHouseAffordabilityCalculator, annuityInstallment } from './affordability.calculator';
import { ProviderCall, ProviderTimeoutError } from './provider-call';
import { stubScenario } from './stub-magic';
import {
  STUB_CREDENTIAL,
  StubAmlScreeningProvider,
  StubCreditBureauProvider,
  StubIdentityVerificationProvider,
  StubScoringProvider,
} from './stub-providers';

const applicant = (nationalId: string) => ({ customerId: 'c-1', nationalId });
const CLEAN: CreditReport = {
  record: 'found',
  reportId: 'r',
  creditHistoryMonths: 60,
  openAccounts: 0,
  monthlyDebtPayments: 0,
  worstDelinquencyDays: 0,
  bureauScore: 735,
};
const scoreOf = (nationalId: string, bureau: CreditReport | null = CLEAN) =>
  new StubScoringProvider().score(
    {
      applicant: applicant(nationalId),
      amount: 1_000_000,
      currency: 'KZT',
      termMonths: 12,
      monthlyIncome: 500_000,
      monthlyExpenses: 100_000,
      bureau,
    },
    new ProviderCall(1),
  );

describe('the stub providers', () => {
  it('choose their scenario by the last two characters of the national id', () => {
    expect(stubScenario('900101300511')).toBe('identity_mismatch');
    expect(stubScenario('AB-31')).toBe('aml_hit');
    expect(stubScenario('900101300500')).toBe('default');
    expect(stubScenario('9001013005xx')).toBe('default');
  });

  it('answer the same input the same way, and record what a real adapter would send', async () => {
    const a = new ProviderCall(1);
    const b = new ProviderCall(1);
    const first = await new StubIdentityVerificationProvider().verify(applicant('900101300500'), a);
    const again = await new StubIdentityVerificationProvider().verify(applicant('900101300500'), b);
    expect(first).toEqual(again);
    expect(first).toMatchObject({ outcome: 'match', confidence: 98 });
    expect(a.operation).toBe('POST /v1/identity/verifications');
    expect(a.request).toMatchObject({ apiKey: STUB_CREDENTIAL, nationalId: '900101300500' });
    expect(a.response).toMatchObject({ status: 'MATCH' });
  });

  it('produce every documented outcome', async () => {
    const idv = new StubIdentityVerificationProvider();
    expect((await idv.verify(applicant('x11'), new ProviderCall(1))).outcome).toBe('mismatch');
    expect((await idv.verify(applicant('x13'), new ProviderCall(1))).outcome).toBe('not_found');
    const bureau = new StubCreditBureauProvider();
    expect((await bureau.report(applicant('x21'), 'KZT', new ProviderCall(1))).record).toBe('none');
    expect((await bureau.report(applicant('x22'), 'KZT', new ProviderCall(1))).worstDelinquencyDays).toBe(
      120,
    );
    const aml = new StubAmlScreeningProvider();
    expect((await aml.screen(applicant('x31'), new ProviderCall(1))).outcome).toBe('hit');
    expect((await aml.screen(applicant('x32'), new ProviderCall(1))).outcome).toBe('possible_match');
    expect((await scoreOf('x00')).score).toBe(720);
    expect((await scoreOf('x41')).score).toBe(640);
    expect((await scoreOf('x42')).score).toBe(450);
    expect((await scoreOf('x00')).factors[0]).toEqual({ code: 'CREDIT_HISTORY_LENGTH', impact: 60 });
    // Without a bureau record (no record, or the bureau did not answer): a thin file.
    expect((await scoreOf('x00', null)).score).toBe(610);
  });

  it('time out on the first attempt of a timeout scenario only', async () => {
    const idv = new StubIdentityVerificationProvider();
    const first = new ProviderCall(1);
    await expect(idv.verify(applicant('x12'), first)).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(first.request).not.toBeNull();
    expect(first.response).toBeNull();
    expect((await idv.verify(applicant('x12'), new ProviderCall(2))).outcome).toBe('match');
    await expect(
      new StubCreditBureauProvider().report(applicant('x23'), 'KZT', new ProviderCall(1)),
    ).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(
      new StubAmlScreeningProvider().screen(applicant('x33'), new ProviderCall(1)),
    ).rejects.toThrow('simulated timeout');
    await expect(scoreOf('x43')).rejects.toBeInstanceOf(ProviderTimeoutError);
  });
});

describe('the affordability calculator', () => {
  const calc = new InHouseAffordabilityCalculator();

  it('estimates the installment as an annuity at the reference rate', () => {
    expect(annuityInstallment(1_200_000, 12, 0)).toBe(100_000);
    // 1,000,000 over 12 months at 24% a year (2% a month): 94,559.60 -> rounded up.
    expect(annuityInstallment(1_000_000, 12, 2400)).toBe(94_560);
  });

  it('reads debt-to-income as affordable, marginal or unaffordable', () => {
    const base = { amount: 1_000_000, termMonths: 12, existingDebtPayments: 0 };
    expect(calc.assess({ ...base, monthlyIncome: 500_000, monthlyExpenses: 100_000 })).toMatchObject({
      installment: 94_560,
      debtToIncome: 0.3891,
      disposableIncome: 305_440,
      outcome: 'affordable',
    });
    expect(calc.assess({ ...base, monthlyIncome: 500_000, monthlyExpenses: 200_000 }).outcome).toBe(
      'marginal',
    );
    expect(calc.assess({ ...base, monthlyIncome: 500_000, monthlyExpenses: 300_000 }).outcome).toBe(
      'unaffordable',
    );
    expect(calc.assess({ ...base, monthlyIncome: 0, monthlyExpenses: 0 })).toMatchObject({
      debtToIncome: null,
      outcome: 'unaffordable',
    });
  });
});
