import { bpsToPercent, percentOf, periodsOfMonths } from './loan-terms';
import type { Loan } from './loan.entity';
import {
  type BasePeriod,
  type CostFlow,
  type Frequency,
  type UnitPeriod,
  LoanMathError,
  annualPercentageRate,
  fullCostOfCredit,
  generateSchedule,
} from './math';
import type { LoanProduct } from './products/loan-product.entity';

/** What of an instalment the full cost counts: its date and everything the borrower pays with it. */
export interface CostRow {
  periodStart: string;
  dueDate: string;
  principal: number;
  interest: number;
  fees: number;
  balanceAfter: number;
}

/** The cost of credit of one loan as the API answers it (docs/lending/loans.md, "Full cost of credit"). */
export interface CostOfCredit {
  fullCostRate: string;
  fullCostAmount: number;
  apr: string;
  basis: 'terms' | 'schedule';
  disbursementDate: string;
  method: {
    basePeriodUnit: 'month' | 'day';
    basePeriodCount: number;
    periodsPerYear: string;
    unitPeriodUnit: UnitPeriod['unit'];
    unitPeriodCount: number;
    unitPeriodsPerYear: string;
    aprRegular: boolean;
    aprTolerance: string;
  };
}

/** The terms a schedule is generated from: a contract's, or an offer's on its product. */
export type ContractTerms = Pick<
  Loan,
  | 'principal'
  | 'annualRate'
  | 'termCount'
  | 'frequency'
  | 'scheduleType'
  | 'dayCount'
  | 'interestMethod'
  | 'graceInterestOnly'
  | 'gracePrincipal'
  | 'rounding'
  | 'originationFee'
>;

/**
 * The schedule the contract generates when paid out on `on` (first due date one period on unless
 * given): the loan's terms, the origination fee with the first instalment. It is what DisburseLoan
 * stores (firstSchedule in disbursement.service.ts generates the same; it can call this).
 */
export function contractSchedule(loan: ContractTerms, on: string, firstDueDate?: string) {
  return generateSchedule({
    principal: loan.principal,
    annualRate: loan.annualRate,
    termCount: loan.termCount,
    frequency: loan.frequency,
    scheduleType: loan.scheduleType,
    dayCount: loan.dayCount,
    interestMethod: loan.interestMethod,
    disbursementDate: on,
    firstDueDate,
    graceInterestOnly: loan.graceInterestOnly,
    gracePrincipal: loan.gracePrincipal,
    rounding: loan.rounding,
    fees:
      loan.originationFee > 0 ? [{ name: 'origination', amount: loan.originationFee, dueWith: 'first' }] : [],
  });
}

/**
 * The borrower's cash flows: the principal out on the disbursement day, every instalment in force
 * (principal, interest, fees) on its due date, and principal repaid ahead of the schedule (an early
 * repayment that shortened or lowered it) on the day the schedule that follows it starts: where an
 * instalment starts from a smaller balance than the one before it left.
 */
export function costFlows(principal: number, disbursedOn: string, rows: readonly CostRow[]): CostFlow[] {
  const flows: CostFlow[] = [{ date: disbursedOn, amount: -principal }];
  let balance = principal;
  for (const r of rows) {
    const ahead = balance - (r.balanceAfter + r.principal);
    if (ahead > 0) flows.push({ date: r.periodStart, amount: ahead });
    flows.push({ date: r.dueDate, amount: r.principal + r.interest + r.fees });
    balance = r.balanceAfter;
  }
  return flows;
}

const BASE: Record<Frequency, BasePeriod> = {
  monthly: { unit: 'month', count: 1 },
  quarterly: { unit: 'month', count: 3 },
  weekly: { unit: 'day', count: 7 },
  biweekly: { unit: 'day', count: 14 },
};

/**
 * The last results, by flows: a loan's reads, its disbursement answer and its bureau event ask for
 * the same flows, and each solve costs about as much as generating the schedule.
 */
const MEMO_SIZE = 256;
const memo = new Map<string, CostOfCredit | null>();
function remembered(key: string, compute: () => CostOfCredit | null): CostOfCredit | null {
  if (memo.has(key)) return memo.get(key) ?? null;
  const value = compute();
  if (value) Object.freeze(Object.freeze(value).method);
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(key, value);
  return value;
}

/**
 * ПСК and APR of `flows` for a loan repaid `frequency`: the base period and the unit-period are the
 * frequency (the schedule's most frequent interval); with a single payment, its term. Null when the
 * flows have no rate (nothing to pay yet, or payments that do not repay the principal).
 */
export function costOfCreditOf(
  flows: CostFlow[],
  frequency: Frequency,
  basis: CostOfCredit['basis'],
): CostOfCredit | null {
  const key = `${frequency}|${basis}|${flows.map((f) => `${f.date}:${f.amount}`).join(',')}`;
  return remembered(key, () => solve(flows, frequency, basis));
}

function solve(flows: CostFlow[], frequency: Frequency, basis: CostOfCredit['basis']): CostOfCredit | null {
  const payments = flows.filter((f) => f.amount > 0).length;
  if (payments === 0) return null;
  const base = payments > 1 ? BASE[frequency] : undefined;
  const unit: UnitPeriod | undefined = base;
  try {
    const psk = fullCostOfCredit(flows, base);
    const apr = annualPercentageRate(flows, unit);
    return {
      fullCostRate: psk.rate,
      fullCostAmount: psk.amount,
      apr: apr.rate,
      basis,
      disbursementDate: flows[0].date,
      method: {
        basePeriodUnit: psk.basePeriod.unit,
        basePeriodCount: psk.basePeriod.count,
        periodsPerYear: psk.periodsPerYear,
        unitPeriodUnit: apr.unitPeriod.unit,
        unitPeriodCount:
          'count' in apr.unitPeriod
            ? apr.unitPeriod.count
            : 'days' in apr.unitPeriod
              ? apr.unitPeriod.days
              : 1,
        unitPeriodsPerYear: apr.unitPeriodsPerYear,
        aprRegular: apr.regular,
        aprTolerance: apr.tolerance,
      },
    };
  } catch (err) {
    if (err instanceof LoanMathError) return null;
    throw err;
  }
}

/**
 * A loan's cost of credit: before the disbursement from the schedule its terms generate when paid out
 * `today`; after it from the schedule in force and the actual disbursement. A cancelled contract has none.
 */
export function loanCostOfCredit(loan: Loan, rows: readonly CostRow[], today: string): CostOfCredit | null {
  if (loan.status === 'cancelled') return null;
  if (loan.disbursedOn && rows.length) {
    return costOfCreditOf(costFlows(loan.principal, loan.disbursedOn, rows), loan.frequency, 'schedule');
  }
  if (loan.disbursedOn) return null;
  return projected(loan, today);
}

function projected(terms: ContractTerms, today: string): CostOfCredit | null {
  try {
    const planned = contractSchedule(terms, today);
    return costOfCreditOf(costFlows(terms.principal, today, planned), terms.frequency, 'terms');
  } catch (err) {
    if (err instanceof LoanMathError) return null;
    throw err;
  }
}

/**
 * An offer's cost of credit: the contract CreateLoan would make of it on `product` (the offered amount;
 * the term in the product's periods; the offered rate, else the product's; the product's origination
 * fee), paid out `today`. Null when the term does not convert into the product's periods.
 */
export function offerCostOfCredit(
  product: LoanProduct,
  offer: { amount: number; termMonths: number; annualRateBps: number | null },
  today: string,
): CostOfCredit | null {
  const termCount = periodsOfMonths(offer.termMonths, product.frequency);
  if (termCount === null) return null;
  return projected(
    {
      principal: offer.amount,
      annualRate: offer.annualRateBps !== null ? bpsToPercent(offer.annualRateBps) : product.annualRate,
      termCount,
      frequency: product.frequency,
      scheduleType: product.scheduleType,
      dayCount: product.dayCount,
      interestMethod: product.interestMethod,
      graceInterestOnly: product.graceInterestOnly,
      gracePrincipal: product.gracePrincipal,
      rounding: product.rounding,
      originationFee: product.originationFee + percentOf(offer.amount, product.originationFeePercent),
    },
    today,
  );
}
