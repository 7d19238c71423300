import { balancesOf, trialBalance } from './balances';
import { LEDGER_ACCOUNTS } from './chart-of-accounts';
import { Posting } from './posting';

describe('a ledger posting', () => {
  it('leaves out zero amounts and refuses an unbalanced or empty set of lines', () => {
    const p = new Posting().debit('cash', 100).credit('loan_principal', 100).credit('overpayment', 0);
    expect(p.lines()).toHaveLength(2);
    expect(() => new Posting().debit('cash', 100).credit('loan_principal', 99).lines()).toThrow(/unbalanced/);
    expect(() => new Posting().lines()).toThrow(/unbalanced/);
    expect(() => new Posting().debit('cash', 1.5)).toThrow(/minor units/);
    expect(() => new Posting().debit('cash', -1)).toThrow(/minor units/);
  });

  it('mirrors posted lines into their reversal, which nets every account to zero', () => {
    const lines = new Posting()
      .debit('cash', 500)
      .credit('loan_principal', 300, { component: 'currentPrincipal', instalmentId: 'i1' })
      .credit('interest_advance', 200, { component: 'currentInterest', instalmentId: 'i1' })
      .lines();
    const mirror = Posting.mirror(lines).lines();
    expect(mirror[1]).toEqual({
      account: 'loan_principal',
      debit: 300,
      credit: 0,
      component: 'currentPrincipal',
      instalmentId: 'i1',
    });
    const totals = Object.fromEntries(LEDGER_ACCOUNTS.map((a) => [a, { debit: 0, credit: 0 }])) as Parameters<
      typeof balancesOf
    >[0];
    for (const l of [...lines, ...mirror]) {
      totals[l.account].debit += l.debit;
      totals[l.account].credit += l.credit;
    }
    expect(Object.values(balancesOf(totals)).every((b) => b === 0)).toBe(true);
    expect(trialBalance(totals)).toEqual({ debit: 1000, credit: 1000 });
  });

  it('reads assets by their debits and liabilities and income by their credits', () => {
    const totals = Object.fromEntries(LEDGER_ACCOUNTS.map((a) => [a, { debit: 0, credit: 0 }])) as Parameters<
      typeof balancesOf
    >[0];
    totals.loan_principal = { debit: 1000, credit: 300 };
    totals.overpayment = { debit: 0, credit: 50 };
    totals.cash = { debit: 350, credit: 1000 };
    const b = balancesOf(totals);
    expect([b.loan_principal, b.overpayment, b.cash]).toEqual([700, 50, -650]);
  });
});
