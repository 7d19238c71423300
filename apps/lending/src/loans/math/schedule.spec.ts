import { LoanMathErrorCode } from './errors';
import {
  type Instalment,
  type ScheduleInput,
  annuityPaymentOf,
  generateSchedule,
  periodInterest,
} from './index';

// Reference numbers are computed independently (Python `fractions` + `datetime`, or by hand, as shown).
const brief = (rows: Instalment[]) =>
  rows.map((r) => [r.dueDate, r.principal, r.interest, r.fees, r.total, r.balanceAfter]);

const excel: ScheduleInput = {
  principal: 1_000_000, // 10,000.00
  annualRate: '8',
  termCount: 10,
  frequency: 'monthly',
  scheduleType: 'annuity',
  dayCount: '30/360',
  disbursementDate: '2025-01-15',
};

// Excel: =PMT(8%/12, 10, -10000) = 1037.0320893591522; i = 0.08/12 = 1/150.
// PMT = P*i/(1-(1+i)^-n) = 123253559006734370280020000/1188522132260155542003 minor units -> 103703.
// Row k: interest = round(B*i), principal = 103703 - interest; the last takes the whole balance.
const EXCEL_ROWS = [
  ['2025-02-15', 97036, 6667, 0, 103703, 902964], // 1,000,000/150 = 6666.67
  ['2025-03-15', 97683, 6020, 0, 103703, 805281], // 902,964/150 = 6019.76
  ['2025-04-15', 98334, 5369, 0, 103703, 706947],
  ['2025-05-15', 98990, 4713, 0, 103703, 607957],
  ['2025-06-15', 99650, 4053, 0, 103703, 508307],
  ['2025-07-15', 100314, 3389, 0, 103703, 407993],
  ['2025-08-15', 100983, 2720, 0, 103703, 307010],
  ['2025-09-15', 101656, 2047, 0, 103703, 205354],
  ['2025-10-15', 102334, 1369, 0, 103703, 103020],
  ['2025-11-15', 103020, 687, 0, 103707, 0], // 103,020/150 = 686.8; absorbs 4 minor units of rounding
];

describe('annuity', () => {
  it('reproduces Excel PMT: 10,000.00 at 8%/12 over 10 months -> 1,037.03', () => {
    expect(annuityPaymentOf(1_000_000, '8', 10, 'monthly')).toBe(103703);
    const rows = generateSchedule(excel);
    expect(brief(rows)).toEqual(EXCEL_ROWS);
    expect(rows.map((r) => r.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(rows[0]).toMatchObject({ periodStart: '2025-01-15', days: 31 });
    expect(rows[1]).toMatchObject({ periodStart: '2025-02-15', days: 28 });
  });

  it('uses the periodic rate for regular periods whatever the day count', () => {
    for (const dayCount of ['ACT/365F', 'ACT/ACT'] as const) {
      expect(brief(generateSchedule({ ...excel, dayCount }))).toEqual(EXCEL_ROWS);
    }
  });

  it('charges a broken first period by the day count and keeps the amortisation', () => {
    // 2025-01-15 -> 2025-03-01 = 45 days, ACT/365F: 1,000,000 * 0.08 * 45/365 = 720000/73 = 9863.01 -> 9863.
    // Principal of instalment 1 stays 103,703 - round(1,000,000/150) = 97,036.
    const rows = generateSchedule({ ...excel, dayCount: 'ACT/365F', firstDueDate: '2025-03-01' });
    expect(brief(rows)[0]).toEqual(['2025-03-01', 97036, 9863, 0, 106899, 902964]);
    expect(rows[0].days).toBe(45);
    expect(rows.slice(1).map((r) => [r.principal, r.interest])).toEqual(
      EXCEL_ROWS.slice(1).map((r) => [r[1], r[2]]),
    );
    expect(rows.map((r) => r.dueDate).slice(0, 3)).toEqual(['2025-03-01', '2025-04-01', '2025-05-01']);
  });

  it('a first due date exactly one period out is a regular period', () => {
    expect(brief(generateSchedule({ ...excel, dayCount: 'ACT/365F', firstDueDate: '2025-02-15' }))).toEqual(
      EXCEL_ROWS,
    );
  });

  it('matches independent references for long and extreme terms (Python fractions)', () => {
    // 500,000.00 at 19.99% over 360 months, from 2024-01-31: PMT 8,350.98; first row 2181 + 832917;
    // last row 821593 + 13686; due dates keep the month end.
    const long = generateSchedule({
      ...excel,
      principal: 50_000_000,
      annualRate: '19.99',
      termCount: 360,
      disbursementDate: '2024-01-31',
    });
    expect(long).toHaveLength(360);
    expect(brief(long)[0]).toEqual(['2024-02-29', 2181, 832917, 0, 835098, 49997819]);
    expect(brief(long)[1]).toEqual(['2024-03-31', 2218, 832880, 0, 835098, 49995601]);
    expect(brief(long)[359]).toEqual(['2054-01-31', 821593, 13686, 0, 835279, 0]);
    // 0.01% over 12: PMT 41,668.92; 36.5% over 24: PMT 29,656.38, last 29,656.39.
    const low = generateSchedule({ ...excel, principal: 50_000_000, annualRate: '0.01', termCount: 12 });
    expect([low[0].total, low[11].principal, low[11].interest]).toEqual([4166892, 4166862, 35]);
    const high = generateSchedule({ ...excel, principal: 50_000_000, annualRate: '36.5', termCount: 24 });
    expect([high[0].principal, high[0].interest, high[23].total]).toEqual([1444805, 1520833, 2965639]);
  });

  it('at 0% splits the principal into equal parts', () => {
    const rows = generateSchedule({ ...excel, annualRate: '0', termCount: 3 });
    expect(brief(rows)).toEqual([
      ['2025-02-15', 333333, 0, 0, 333333, 666667],
      ['2025-03-15', 333333, 0, 0, 333333, 333334],
      ['2025-04-15', 333334, 0, 0, 333334, 0],
    ]);
  });

  it('interest-only grace: interest first, then the Excel annuity over the remaining periods', () => {
    const rows = generateSchedule({ ...excel, termCount: 12, graceInterestOnly: 2 });
    expect(brief(rows.slice(0, 2))).toEqual([
      ['2025-02-15', 0, 6667, 0, 6667, 1_000_000],
      ['2025-03-15', 0, 6667, 0, 6667, 1_000_000],
    ]);
    expect(rows.slice(2).map((r) => [r.principal, r.interest])).toEqual(EXCEL_ROWS.map((r) => [r[1], r[2]]));
  });

  it('pay-nothing grace: interest is not capitalised; it is due with the first paying instalment', () => {
    // Two periods of 1,000,000/150 = 6666.67 -> 6667 each (every period's interest is rounded once, as the
    // accruals book it): 13334 deferred; instalment 3 pays 6667 + 13334.
    const rows = generateSchedule({ ...excel, termCount: 12, gracePrincipal: 2 });
    expect(brief(rows.slice(0, 3))).toEqual([
      ['2025-02-15', 0, 0, 0, 0, 1_000_000],
      ['2025-03-15', 0, 0, 0, 0, 1_000_000],
      ['2025-04-15', 97036, 20001, 0, 117037, 902964],
    ]);
    expect(rows.slice(3).map((r) => [r.principal, r.interest])).toEqual(
      EXCEL_ROWS.slice(1).map((r) => [r[1], r[2]]),
    );
  });

  it("pay-nothing grace with 'spread': the deferred 13,334 in ten parts of 1,333, the last 1,337", () => {
    const rows = generateSchedule({ ...excel, termCount: 12, gracePrincipal: 2, deferredInterest: 'spread' });
    expect(rows.slice(2).map((r) => r.interest - Number(EXCEL_ROWS[r.number - 3][2]))).toEqual([
      1333, 1333, 1333, 1333, 1333, 1333, 1333, 1333, 1333, 1337,
    ]);
  });

  it('defers exactly what the pay-nothing periods accrue: each period rounded once, then summed', () => {
    // 1,000,000 at 8% ACT/365F from 2025-01-15: 31 days 6794.52 -> 6795, 28 days 6136.99 -> 6137,
    // 31 days 6794.52 -> 6795 (rounded as a whole, 19726.03 -> 19726, one less than the accruals book).
    const terms = {
      scheduleType: 'differentiated' as const,
      dayCount: 'ACT/365F' as const,
      frequency: 'monthly' as const,
    };
    const rows = generateSchedule({ ...excel, ...terms, termCount: 6, gracePrincipal: 3 });
    const accrued = rows
      .slice(0, 3)
      .map((r) => periodInterest(r.principal + r.balanceAfter, '8', r.periodStart, r.dueDate, terms).rounded);
    expect(accrued).toEqual([6795, 6137, 6795]);
    const own = periodInterest(1_000_000, '8', rows[3].periodStart, rows[3].dueDate, terms).rounded;
    expect(rows[3].interest).toBe(own + 6795 + 6137 + 6795);
  });

  it('both graces: pay nothing first, then interest only, then amortise', () => {
    const rows = generateSchedule({ ...excel, termCount: 13, gracePrincipal: 1, graceInterestOnly: 2 });
    expect(rows.slice(0, 4).map((r) => [r.principal, r.interest])).toEqual([
      [0, 0],
      // Own 6666.67 -> 6667 plus the deferred period's 6666.67 -> 6667.
      [0, 13334],
      [0, 6667],
      [97036, 6667],
    ]);
  });
});

describe('differentiated (equal principal)', () => {
  const base: ScheduleInput = {
    principal: 1_200_000, // 12,000.00
    annualRate: '12',
    termCount: 6,
    frequency: 'monthly',
    scheduleType: 'differentiated',
    dayCount: '30/360',
    disbursementDate: '2025-01-15',
  };

  it('30/360: by hand, 2,000.00 principal and 1% of the balance a month', () => {
    // Every month is 30/360 = 1/12; 12%/12 = 1% of 12,000, 10,000, 8,000, ... = 120, 100, 80, 60, 40, 20.
    expect(brief(generateSchedule(base))).toEqual([
      ['2025-02-15', 200000, 12000, 0, 212000, 1000000],
      ['2025-03-15', 200000, 10000, 0, 210000, 800000],
      ['2025-04-15', 200000, 8000, 0, 208000, 600000],
      ['2025-05-15', 200000, 6000, 0, 206000, 400000],
      ['2025-06-15', 200000, 4000, 0, 204000, 200000],
      ['2025-07-15', 200000, 2000, 0, 202000, 0],
    ]);
  });

  it('ACT/365F: interest by the actual days of each period', () => {
    // 1,200,000*0.12*31/365 = 12230.14; 1,000,000*0.12*28/365 = 9205.48; 800,000*0.12*31/365 = 8153.42;
    // 600,000*0.12*30/365 = 5917.81; 400,000*0.12*31/365 = 4076.71; 200,000*0.12*30/365 = 1972.60.
    expect(generateSchedule({ ...base, dayCount: 'ACT/365F' }).map((r) => r.interest)).toEqual([
      12230, 9205, 8153, 5918, 4077, 1973,
    ]);
  });

  it('ACT/ACT across a year end', () => {
    // From 2023-11-15, 1,200,000 at 12%: Nov15-Dec15 30/365 -> 11835.62; Dec15-Jan15 = 17/365 + 14/366
    // of 1,000,000*0.12 -> 5589.04 + 4590.16 = 10179.20; Jan15-Feb15 31/366 of 800,000 -> 8131.15.
    const rows = generateSchedule({ ...base, dayCount: 'ACT/ACT', disbursementDate: '2023-11-15' });
    expect(rows.slice(0, 3).map((r) => r.interest)).toEqual([11836, 10179, 8131]);
  });

  it('rounds the equal part once and lets the last instalment absorb the rest', () => {
    const p = (rounding: ScheduleInput['rounding']) =>
      generateSchedule({ ...base, principal: 1_000_000, termCount: 3, annualRate: '0', rounding }).map(
        (r) => r.principal,
      );
    expect(p('half-up')).toEqual([333333, 333333, 333334]);
    expect(p('up')).toEqual([333334, 333334, 333332]);
    // Rounding up 1 minor unit in 3 parts would overshoot (1+1 > 1): the part falls back to floor.
    expect(
      generateSchedule({ ...base, principal: 1, termCount: 3, rounding: 'up' }).map((r) => r.principal),
    ).toEqual([0, 0, 1]);
  });
});

describe('bullet', () => {
  it('pays the interest of each period by the day count and the principal at maturity', () => {
    // 10,000.00 at 10% ACT/365F from 2025-01-10: 31, 28, 31 days -> 8493.15, 7671.23, 8493.15.
    const rows = generateSchedule({
      principal: 1_000_000,
      annualRate: '10',
      termCount: 3,
      frequency: 'monthly',
      scheduleType: 'bullet',
      dayCount: 'ACT/365F',
      disbursementDate: '2025-01-10',
    });
    expect(brief(rows)).toEqual([
      ['2025-02-10', 0, 8493, 0, 8493, 1_000_000],
      ['2025-03-10', 0, 7671, 0, 7671, 1_000_000],
      ['2025-04-10', 1_000_000, 8493, 0, 1_008_493, 0],
    ]);
  });

  it('a one-period payday loan: 14 days at 292% ACT/365F', () => {
    // 500,000 * 2.92 * 14/365 = 500,000 * 0.112 = 56,000 exactly (5,000.00 -> 560.00 interest).
    const [only] = generateSchedule({
      principal: 500_000,
      annualRate: '292',
      termCount: 1,
      frequency: 'biweekly',
      scheduleType: 'bullet',
      dayCount: 'ACT/365F',
      disbursementDate: '2025-06-01',
    });
    expect(only).toMatchObject({ dueDate: '2025-06-15', principal: 500_000, interest: 56_000, days: 14 });
  });
});

describe('due dates, frequencies and fees', () => {
  it('keeps the month end from the anchor: Jan 31 -> Feb 29, Mar 31, Apr 30', () => {
    const rows = generateSchedule({ ...excel, termCount: 4, disbursementDate: '2024-01-31' });
    expect(rows.map((r) => r.dueDate)).toEqual(['2024-02-29', '2024-03-31', '2024-04-30', '2024-05-31']);
  });

  it('quarterly, weekly and biweekly grids and periodic rates (4, 52, 26 periods a year)', () => {
    // 10,000.00 at 12%. Quarterly: i = 3%, PMT = 522610.837 -> 522611; 1,000,000 * 3% = 30000;
    // 507,389 * 3% = 15221.67 -> 15222. Weekly: i = 0.12/52, PMT(3) = 334872.977 -> 334873,
    // interest 2307.69, 1539.88, 771.47. Biweekly: i = 0.12/26, PMT(3) = 336414.979 -> 336415.
    const run = (frequency: ScheduleInput['frequency']) =>
      generateSchedule({
        ...excel,
        frequency,
        termCount: frequency === 'quarterly' ? 2 : 3,
        annualRate: '12',
      }).map((r) => [r.dueDate, r.principal, r.interest]);
    expect(run('quarterly')).toEqual([
      ['2025-04-15', 492611, 30000],
      ['2025-07-15', 507389, 15222],
    ]);
    expect(run('weekly')).toEqual([
      ['2025-01-22', 332565, 2308],
      ['2025-01-29', 333333, 1540],
      ['2025-02-05', 334102, 771],
    ]);
    expect(run('biweekly')).toEqual([
      ['2025-01-29', 331800, 4615],
      ['2025-02-12', 333331, 3084],
      ['2025-02-26', 334869, 1546],
    ]);
  });

  it('fees: first with instalment 1, each with every one; deferred out of a pay-nothing grace', () => {
    const fees = [
      { name: 'origination', amount: 10_000, dueWith: 'first' as const },
      { name: 'service', amount: 500, dueWith: 'each' as const },
    ];
    const rows = generateSchedule({ ...excel, termCount: 3, fees });
    expect(rows.map((r) => r.fees)).toEqual([10_500, 500, 500]);
    expect(rows[0].total).toBe(rows[0].principal + rows[0].interest + 10_500);
    const grace = generateSchedule({ ...excel, termCount: 3, fees, gracePrincipal: 1 });
    expect(grace.map((r) => r.fees)).toEqual([0, 11_000, 500]);
    expect(grace[1].feeItems).toEqual([
      { name: 'origination', amount: 10_000 },
      { name: 'service', amount: 500 },
      { name: 'service', amount: 500 },
    ]);
  });
});

describe('validation', () => {
  it.each([
    [{ principal: 0 }, LoanMathErrorCode.INVALID_AMOUNT, 'principal'],
    [{ principal: 2 ** 53 }, LoanMathErrorCode.INVALID_AMOUNT, 'principal'],
    [{ annualRate: '-1' }, LoanMathErrorCode.INVALID_RATE, 'annualRate'],
    [{ termCount: 0 }, LoanMathErrorCode.INVALID_TERM, 'termCount'],
    [{ termCount: 2001 }, LoanMathErrorCode.INVALID_TERM, 'termCount'],
    [{ termCount: 1.5 }, LoanMathErrorCode.INVALID_TERM, 'termCount'],
    [{ frequency: 'daily' }, LoanMathErrorCode.INVALID_OPTION, 'frequency'],
    [{ scheduleType: 'balloon' }, LoanMathErrorCode.INVALID_OPTION, 'scheduleType'],
    [{ dayCount: '30E/365' }, LoanMathErrorCode.INVALID_OPTION, 'dayCount'],
    [{ interestMethod: 'actual' }, LoanMathErrorCode.INVALID_OPTION, 'interestMethod'],
    [{ rounding: 'ceil' }, LoanMathErrorCode.INVALID_OPTION, 'rounding'],
    [{ disbursementDate: '2025-02-30' }, LoanMathErrorCode.INVALID_DATE, 'disbursementDate'],
    [{ firstDueDate: '2025-01-15' }, LoanMathErrorCode.INVALID_DATE, 'firstDueDate'],
    [{ graceInterestOnly: 10 }, LoanMathErrorCode.INVALID_TERM, 'graceInterestOnly'],
    [{ graceInterestOnly: 5, gracePrincipal: 5 }, LoanMathErrorCode.INVALID_TERM, 'graceInterestOnly'],
    [{ gracePrincipal: -1 }, LoanMathErrorCode.INVALID_TERM, 'gracePrincipal'],
    [{ fees: [{ name: '', amount: 1, dueWith: 'each' }] }, LoanMathErrorCode.INVALID_OPTION, 'fees[0].name'],
    [
      { fees: [{ name: 'x', amount: -1, dueWith: 'each' }] },
      LoanMathErrorCode.INVALID_AMOUNT,
      'fees[0].amount',
    ],
    [
      { fees: [{ name: 'x', amount: 1, dueWith: 'last' }] },
      LoanMathErrorCode.INVALID_OPTION,
      'fees[0].dueWith',
    ],
    [{ deferredInterest: 'end' }, LoanMathErrorCode.INVALID_OPTION, 'deferredInterest'],
    [{ disbursementDate: '2999-06-01' }, LoanMathErrorCode.INVALID_TERM, 'termCount'],
  ])('refuses %p', (patch, code, field) => {
    expect(() => generateSchedule({ ...excel, ...(patch as Partial<ScheduleInput>) })).toThrow(
      expect.objectContaining({ code, field }),
    );
  });

  it('refuses a schedule whose amounts leave the safe-integer range', () => {
    expect(() =>
      generateSchedule({ ...excel, principal: Number.MAX_SAFE_INTEGER, annualRate: '9999', termCount: 1 }),
    ).toThrow(expect.objectContaining({ code: LoanMathErrorCode.OVERFLOW }));
  });
});
