import { periodsPerYear, type Frequency } from '../math';

/** One cash flow of a loan for the borrower: negative out to them, positive back from them. */
export interface CashFlow {
  /** `YYYY-MM-DD` */
  date: string;
  amount: number;
}

const DAY = 86_400_000;
const days = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);

function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const index = y * 12 + (m - 1) + months;
  const ty = Math.floor(index / 12);
  const tm = index - ty * 12;
  const last = new Date(Date.UTC(ty, tm + 1, 0)).getUTCDate();
  return new Date(Date.UTC(ty, tm, Math.min(d, last))).toISOString().slice(0, 10);
}

/**
 * Whole base periods from `start` to `date` (q) and the rest as a fraction of a base period (e), as
 * Russian Federal Law 353-FZ art. 6 counts them for the full cost of credit (ПСК): months by the
 * calendar, weeks by 7 days; the rest in days over the base period's days.
 */
function position(start: string, date: string, frequency: string): { q: number; e: number } {
  if (frequency === 'weekly' || frequency === 'biweekly') {
    const len = frequency === 'weekly' ? 7 : 14;
    const n = days(start, date);
    return { q: Math.floor(n / len), e: (n % len) / len };
  }
  const step = frequency === 'quarterly' ? 3 : 1;
  let q = 0;
  while (addMonths(start, (q + 1) * step) <= date) q++;
  const from = addMonths(start, q * step);
  const periodDays = days(from, addMonths(start, (q + 1) * step));
  return { q, e: days(from, date) / periodDays };
}

/**
 * The full cost of credit as a yearly rate in percent, 3 decimals ("21.351"), by 353-FZ art. 6:
 * PSK = i x CBP x 100, where CBP is the base periods in a year and i solves
 * sum(DP_k / ((1 + e_k i)(1 + i)^q_k)) = 0 over the loan's cash flows (the disbursement negative, every
 * instalment positive). Solved by bisection in double precision: a rate reported to 3 decimals, not an
 * amount (every amount it starts from is whole minor units). Null when the flows have no root in
 * [0, 1000%] a period.
 */
export function fullCostRate(flows: CashFlow[], frequency: Frequency): string | null {
  if (!flows.length) return null;
  const start = flows[0].date;
  const at = flows.map((f) => ({ ...position(start, f.date, frequency), amount: f.amount }));
  const npv = (i: number) => at.reduce((s, f) => s + f.amount / ((1 + f.e * i) * (1 + i) ** f.q), 0);
  let lo = 0;
  let hi = 10;
  if (npv(lo) < 0 || npv(hi) > 0) return npv(lo) === 0 ? '0' : null;
  for (let k = 0; k < 200 && hi - lo > 1e-15; k++) {
    const mid = (lo + hi) / 2;
    if (npv(mid) > 0) lo = mid;
    else hi = mid;
  }
  const percent = ((lo + hi) / 2) * periodsPerYear(frequency) * 100;
  return String(Math.round(percent * 1000) / 1000);
}
