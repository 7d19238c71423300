import { bureauUidOf } from './bureau-uid';
import { fullCostRate } from './full-cost';

describe('bureau record UID', () => {
  it('is the application id, a hyphen and a check character that changes with any digit', () => {
    const id = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
    const uid = bureauUidOf(id);
    expect(uid).toMatch(/^6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d-[0-9a-f]$/);
    expect(bureauUidOf(id.toUpperCase())).toBe(uid);
    expect(bureauUidOf(id.replace(/d$/, 'e')).slice(-1)).not.toBe(uid.slice(-1));
  });
});

describe('full cost of credit (353-FZ)', () => {
  const monthly = (principal: number, payment: number, n: number, extraFirst = 0) => [
    { date: '2026-01-15', amount: -principal },
    ...Array.from({ length: n }, (_, k) => ({
      date: `${2026 + Math.floor((k + 1) / 12)}-${String(((k + 1) % 12) + 1).padStart(2, '0')}-15`,
      amount: payment + (k === 0 ? extraFirst : 0),
    })),
  ];

  it('equals the nominal rate of a plain annuity, and exceeds it with a fee', () => {
    // 1 000 000 at 24%/12 over 12 months: PMT 94 559.60; paid exactly, the monthly IRR is 2%.
    expect(Number(fullCostRate(monthly(1_000_000, 94_559.6, 12), 'monthly'))).toBeCloseTo(24, 2);
    const withFee = Number(fullCostRate(monthly(1_000_000, 94_560, 12, 20_000), 'monthly'));
    expect(withFee).toBeGreaterThan(27);
    expect(withFee).toBeLessThan(29);
  });

  it('counts a broken first period as a fraction of the base period', () => {
    // 100 000 repaid with 101 000 after 15 days of a 31-day month: 1% for half a period.
    const r = Number(
      fullCostRate(
        [
          { date: '2026-01-01', amount: -100_000 },
          { date: '2026-01-16', amount: 101_000 },
        ],
        'monthly',
      ),
    );
    expect(r).toBeCloseTo((0.01 / (15 / 31)) * 12 * 100, 1);
    expect(
      fullCostRate(
        [
          { date: '2026-01-01', amount: -100 },
          { date: '2026-02-01', amount: 50 },
        ],
        'monthly',
      ),
    ).toBeNull();
  });
});
