import fc from 'fast-check';
import {
  DAY_COUNTS,
  DEBT_COMPONENTS,
  type DebtComponent,
  FREQUENCIES,
  type Instalment,
  ROUNDINGS,
  SCHEDULE_TYPES,
  type ScheduleInput,
  accrualToPost,
  addPeriodsTo,
  allocate,
  annuityPaymentOf,
  dailyAccrual,
  generateSchedule,
  interestBetween,
  periodsPerYear,
  reschedule,
  yearFraction,
} from './index';

// Dates are generated and checked with JS Date (UTC), independently of the module's own calendar code.
const DAY_MS = 86_400_000;
const BASE = Date.UTC(1990, 0, 1);
const iso = (offset: number) => new Date(BASE + offset * DAY_MS).toISOString().slice(0, 10);
const dayOf = (s: string) => (Date.parse(`${s}T00:00:00Z`) - BASE) / DAY_MS;
const anyDay = fc.integer({ min: 0, max: 40 * 365 }).map(iso);

const rate = fc
  .tuple(fc.integer({ min: 0, max: 120 }), fc.option(fc.integer({ min: 0, max: 9999 }), { nil: undefined }))
  .map(([int, frac]) => (frac === undefined ? String(int) : `${int}.${String(frac).padStart(4, '0')}`));

const scheduleInput: fc.Arbitrary<ScheduleInput> = fc
  .record({
    principal: fc.integer({ min: 1, max: 100_000_000_000 }),
    annualRate: rate,
    termCount: fc.integer({ min: 1, max: 120 }),
    frequency: fc.constantFrom(...FREQUENCIES),
    scheduleType: fc.constantFrom(...SCHEDULE_TYPES),
    dayCount: fc.constantFrom(...DAY_COUNTS),
    disbursement: fc.integer({ min: 0, max: 30 * 365 }),
    firstDueAfter: fc.option(fc.integer({ min: 1, max: 120 }), { nil: undefined }),
    graceA: fc.nat({ max: 6 }),
    graceB: fc.nat({ max: 6 }),
    rounding: fc.constantFrom(...ROUNDINGS),
    deferredInterest: fc.constantFrom('first' as const, 'spread' as const),
    fees: fc.array(
      fc.record({
        name: fc.constantFrom('origination', 'service', 'insurance'),
        amount: fc.integer({ min: 0, max: 100_000 }),
        dueWith: fc.constantFrom('first' as const, 'each' as const),
      }),
      { maxLength: 3 },
    ),
  })
  .map((r) => {
    const room = r.termCount - 1;
    const gracePrincipal = Math.min(r.graceA, room);
    const graceInterestOnly = Math.min(r.graceB, room - gracePrincipal);
    return {
      principal: r.principal,
      annualRate: r.annualRate,
      termCount: r.termCount,
      frequency: r.frequency,
      scheduleType: r.scheduleType,
      dayCount: r.dayCount,
      disbursementDate: iso(r.disbursement),
      firstDueDate: r.firstDueAfter === undefined ? undefined : iso(r.disbursement + r.firstDueAfter),
      gracePrincipal,
      graceInterestOnly,
      rounding: r.rounding,
      deferredInterest: r.deferredInterest,
      fees: r.fees,
    };
  });

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The invariants every schedule (new or regenerated) keeps. */
function expectSound(rows: Instalment[], principal: number, start: string) {
  expect(sum(rows.map((r) => r.principal))).toBe(principal);
  let balance = principal;
  let previous = start;
  rows.forEach((r, k) => {
    balance -= r.principal;
    expect(r.balanceAfter).toBe(balance);
    expect(r.balanceAfter).toBeGreaterThanOrEqual(0);
    expect(Math.min(r.principal, r.interest, r.fees)).toBeGreaterThanOrEqual(0);
    expect(r.total).toBe(r.principal + r.interest + r.fees);
    expect(r.periodStart).toBe(previous);
    expect(dayOf(r.dueDate)).toBeGreaterThan(dayOf(r.periodStart));
    expect(r.days).toBe(dayOf(r.dueDate) - dayOf(r.periodStart));
    if (k > 0) expect(r.number).toBe(rows[k - 1].number + 1);
    previous = r.dueDate;
  });
  expect(rows[rows.length - 1].balanceAfter).toBe(0);
}

describe('schedule properties', () => {
  it('principals add up to the principal; balances are non-negative and end at 0', () => {
    fc.assert(
      fc.property(scheduleInput, (input) => {
        const rows = generateSchedule(input);
        expect(rows).toHaveLength(input.termCount);
        expectSound(rows, input.principal, input.disbursementDate);
        const pn = input.gracePrincipal ?? 0;
        const io = input.graceInterestOnly ?? 0;
        rows.slice(0, pn).forEach((r) => expect(r.total).toBe(0));
        rows.slice(pn, pn + io).forEach((r) => expect(r.principal).toBe(0));
        if (input.scheduleType === 'bullet') rows.slice(0, -1).forEach((r) => expect(r.principal).toBe(0));
        const fees = input.fees ?? [];
        const expectedFees =
          sum(fees.map((f) => f.amount)) +
          (input.termCount - 1) * sum(fees.filter((f) => f.dueWith === 'each').map((f) => f.amount));
        expect(sum(rows.map((r) => r.fees))).toBe(expectedFees);
      }),
    );
  });

  it('annuity instalments (principal + interest) are level apart from the first and last', () => {
    fc.assert(
      fc.property(scheduleInput, (raw) => {
        const input = { ...raw, scheduleType: 'annuity' as const, gracePrincipal: 0, graceInterestOnly: 0 };
        const rows = generateSchedule(input);
        const pmt = annuityPaymentOf(
          input.principal,
          input.annualRate,
          input.termCount,
          input.frequency,
          input.rounding,
        );
        // Strictly between the first and last. With extreme rate x term (or a few minor units lent) the
        // rounding of PMT compounds and can exhaust the balance early: that instalment is smaller and
        // the ones after it are 0 (documented), so rows that reach a zero balance are not level.
        for (const r of rows.slice(1, -1)) {
          if (r.balanceAfter > 0) expect(r.principal + r.interest).toBe(pmt);
          else expect(r.principal + r.interest).toBeLessThanOrEqual(pmt);
        }
      }),
    );
  });

  it('without a broken first period an annuity does not depend on the day count', () => {
    fc.assert(
      fc.property(scheduleInput, (raw) => {
        const input = { ...raw, scheduleType: 'annuity' as const, firstDueDate: undefined };
        const [first, ...others] = DAY_COUNTS.map((dayCount) => generateSchedule({ ...input, dayCount }));
        for (const other of others) expect(other).toEqual(first);
      }),
    );
  });

  it("interest method 'day-count': amortises to zero; each period's interest is B x rate x yf rounded", () => {
    fc.assert(
      fc.property(scheduleInput, (raw) => {
        const input = { ...raw, scheduleType: 'annuity' as const, interestMethod: 'day-count' as const };
        const rows = generateSchedule(input);
        expect(rows).toHaveLength(input.termCount);
        expectSound(rows, input.principal, input.disbursementDate);
        const maturity = rows[rows.length - 1].dueDate;
        const own = rows.map(
          (r) =>
            interestBetween(
              r.principal + r.balanceAfter,
              input.annualRate,
              r.periodStart,
              r.dueDate,
              input.dayCount,
              input.rounding,
              maturity,
            ).rounded,
        );
        // Pay-nothing periods bill 0 and defer exactly their own rounded interest: the totals agree.
        expect(sum(rows.map((r) => r.interest))).toBe(sum(own));
        const pn = input.gracePrincipal ?? 0;
        if (pn === 0) rows.forEach((r, k) => expect(r.interest).toBe(own[k]));
        // Amortising instalments before the last are PMT (principal + interest) unless the interest alone
        // exceeds it (principal 0) or the balance ran out early (the documented rounding drift).
        const pmt = annuityPaymentOf(
          input.principal,
          input.annualRate,
          input.termCount - pn - (input.graceInterestOnly ?? 0),
          input.frequency,
          input.rounding,
        );
        rows.forEach((r, k) => {
          if (k < pn + (input.graceInterestOnly ?? 0) || k === rows.length - 1 || r.balanceAfter === 0)
            return;
          if (r.principal > 0) expect(r.principal + own[k]).toBe(pmt);
          else expect(own[k]).toBeGreaterThanOrEqual(pmt);
        });
      }),
    );
  });

  it('PMT agrees with the floating-point textbook formula within one minor unit (independent oracle)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_000 }),
        fc.integer({ min: 1, max: 4000 }),
        fc.integer({ min: 1, max: 360 }),
        fc.constantFrom(...FREQUENCIES),
        (principal, bp, n, frequency) => {
          const annual = `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
          const i = bp / 10000 / periodsPerYear(frequency);
          const float = (principal * i) / (1 - Math.pow(1 + i, -n));
          // Half a minor unit of rounding, plus the float formula's own error: it grows with the
          // amount (about 1e-16 relative per operation, a few hundred operations in Math.pow).
          expect(Math.abs(annuityPaymentOf(principal, annual, n, frequency) - float)).toBeLessThanOrEqual(
            0.5 + 1e-6 + principal * 1e-12,
          );
        },
      ),
    );
  });

  it('due dates follow the anchor on the calendar (JS Date oracle for days up to 28)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1995, max: 2090 }),
        fc.integer({ min: 0, max: 11 }),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: -240, max: 240 }),
        (y, m, d, k) => {
          const date = new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
          expect(addPeriodsTo(date, k, 'monthly')).toBe(
            new Date(Date.UTC(y, m + k, d)).toISOString().slice(0, 10),
          );
          expect(addPeriodsTo(date, k, 'weekly')).toBe(
            new Date(Date.UTC(y, m, d + 7 * k)).toISOString().slice(0, 10),
          );
        },
      ),
    );
  });
});

describe('day count and accrual properties', () => {
  it('ACT/365F and ACT/ACT are additive; a year of ACT/ACT is 1', () => {
    fc.assert(
      fc.property(anyDay, fc.nat({ max: 2000 }), fc.nat({ max: 2000 }), (a, x, y) => {
        const b = iso(dayOf(a) + x);
        const c = iso(dayOf(b) + y);
        for (const dc of ['ACT/365F', 'ACT/ACT'] as const) {
          const left = interestBetween(36_500_000, '100', a, b, dc);
          const right = interestBetween(36_500_000, '100', b, c, dc);
          const whole = interestBetween(36_500_000, '100', a, c, dc);
          const cum = accrualToPost(left.exact, right.exact).exactCumulative;
          // Each side is cut to 12 places: the sum may differ from the whole by one unit of the last place.
          const units = (v: string) => BigInt(v.replace('.', ''));
          const gap = units(cum) - units(whole.exact);
          expect(gap >= -1n && gap <= 1n).toBe(true);
        }
        const year = Number(a.slice(0, 4));
        expect(yearFraction(`${year}-01-01`, `${year + 1}-01-01`, 'ACT/ACT')).toBe('1.000000000000');
        expect(yearFraction(`${year}-01-01`, `${year + 4}-01-01`, 'ACT/ACT')).toBe('4.000000000000');
      }),
    );
  });

  it('posting accruals never drifts: the posts add up to the rounded exact cumulative amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        rate,
        fc.constantFrom(...DAY_COUNTS),
        fc.constantFrom(...ROUNDINGS),
        anyDay,
        fc.integer({ min: 1, max: 400 }),
        (principal, annualRate, dayCount, rounding, start, days) => {
          let cumulative = '0';
          let posted = 0;
          for (let k = 0; k < days; k++) {
            const today = dailyAccrual(principal, annualRate, iso(dayOf(start) + k), dayCount, {
              periodStart: start,
              rounding,
            });
            const step = accrualToPost(cumulative, today.exact, rounding);
            cumulative = step.exactCumulative;
            posted += step.post;
          }
          const whole = interestBetween(
            principal,
            annualRate,
            start,
            iso(dayOf(start) + days),
            dayCount,
            rounding,
          );
          expect(cumulative).toBe(whole.exact);
          expect(posted).toBe(whole.rounded);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('allocation properties', () => {
  const debts = fc.record(
    Object.fromEntries(DEBT_COMPONENTS.map((c) => [c, fc.integer({ min: 0, max: 1_000_000 })])) as Record<
      DebtComponent,
      fc.Arbitrary<number>
    >,
  );
  // Any subset in any order: the components left out follow in the default order.
  const order = fc.shuffledSubarray([...DEBT_COMPONENTS], { minLength: 0, maxLength: 6 });

  it('parts add up to min(amount, total debt), the rest is overpayment, no part exceeds its debt, order respected', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7_000_000 }), debts, order, (amount, d, named) => {
        const o = [...named, ...DEBT_COMPONENTS.filter((c) => !named.includes(c))];
        const { parts, overpayment, rule } = allocate(amount, d, named);
        const total = sum(DEBT_COMPONENTS.map((c) => d[c]));
        expect(sum(DEBT_COMPONENTS.map((c) => parts[c]))).toBe(Math.min(amount, total));
        expect(overpayment).toBe(amount - Math.min(amount, total));
        for (const c of DEBT_COMPONENTS) {
          expect(parts[c]).toBeGreaterThanOrEqual(0);
          expect(parts[c]).toBeLessThanOrEqual(d[c]);
        }
        o.forEach((c, k) => {
          if (parts[c] < d[c]) o.slice(k + 1).forEach((later) => expect(parts[later]).toBe(0));
        });
        expect(rule).toBe(`allocation.order:${o.join('>')}`);
      }),
    );
  });
});

describe('reschedule properties', () => {
  it('every change keeps principal sums, non-negative balances ending at 0, and the numbering', () => {
    fc.assert(
      fc.property(
        scheduleInput.filter((i) => i.termCount >= 2),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 20 }),
        fc.oneof(
          fc.record({
            kind: fc.constant('prepayment' as const),
            mode: fc.constantFrom('reduce-term' as const, 'reduce-instalment' as const),
          }),
          fc.record({
            kind: fc.constant('holiday' as const),
            periods: fc.integer({ min: 1, max: 6 }),
            deferredInterest: fc.constantFrom('first' as const, 'spread' as const),
          }),
          fc.record({
            kind: fc.constant('restructure' as const),
            annualRate: rate,
            termCount: fc.integer({ min: 1, max: 60 }),
          }),
        ),
        fc.constantFrom('periodic' as const, 'day-count' as const),
        (raw, cut, keep, daysIn, change, interestMethod) => {
          const input = { ...raw, interestMethod };
          const rows = generateSchedule(input);
          // Settled up to instalment `paid`; the change happens `daysIn` days into the next period.
          const paid = Math.min(Math.floor(cut * (rows.length - 1)), rows.length - 2);
          const last = paid === 0 ? input.disbursementDate : rows[paid - 1].dueDate;
          const fromDate = iso(Math.min(dayOf(last) + daysIn, dayOf(rows[paid].dueDate) - 1));
          const outstanding = paid === 0 ? input.principal : rows[paid - 1].balanceAfter;
          const principal = Math.max(1, Math.floor(outstanding * keep));
          const remaining = {
            principal,
            fromDate,
            annualRate: input.annualRate,
            frequency: input.frequency,
            scheduleType: input.scheduleType,
            dayCount: input.dayCount,
            rounding: input.rounding,
            interestMethod: input.interestMethod,
            instalments: rows.slice(paid),
            accruedInterest: daysIn,
          };
          const next = reschedule(remaining, change);
          expectSound(next, principal, fromDate);
          expect(next[0].number).toBe(paid + 1);
          const count = rows.length - paid;
          if (change.kind === 'holiday') expect(next).toHaveLength(count + change.periods);
          if (change.kind === 'restructure') expect(next).toHaveLength(change.termCount);
          if (change.kind === 'prepayment' && change.mode === 'reduce-term')
            expect(next.length).toBeLessThanOrEqual(count);
          if (change.kind === 'prepayment' && change.mode === 'reduce-instalment')
            expect(next).toHaveLength(count);
          expect(sum(next.map((r) => r.interest))).toBeGreaterThanOrEqual(daysIn);
        },
      ),
    );
  });
});
