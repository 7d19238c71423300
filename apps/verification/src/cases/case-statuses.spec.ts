import { CASE_STATUSES, CASE_TRANSITIONS, canMove } from './case-statuses';

describe('case status machine', () => {
  it('names only known statuses as targets', () => {
    for (const targets of Object.values(CASE_TRANSITIONS))
      for (const t of targets) expect(CASE_STATUSES).toContain(t);
  });

  it('lets every open case be cancelled and no final one move', () => {
    const final = ['Approved', 'Declined', 'Cancelled', 'Expired'] as const;
    for (const s of CASE_STATUSES.filter((x) => !(final as readonly string[]).includes(x)))
      expect(canMove(s, 'Cancelled')).toBe(true);
    for (const s of final) expect(CASE_TRANSITIONS[s]).toEqual([]);
  });

  it('refuses skipping the checks', () => {
    expect(canMove('AwaitingApplicant', 'Approved')).toBe(false);
  });
});
