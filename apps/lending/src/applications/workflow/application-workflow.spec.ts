import {
  APPLICATION_ACTIONS,
  APPLICATION_STATUSES,
  CHECKS_LEASE_MS,
  TERMINAL_STATUSES,
  TRANSITIONS,
  checksClaimExpired,
  findTransition,
  standingOperationOf,
  transitionsFrom,
} from './application-workflow';
import { STANDING_OPERATIONS } from '../../customers/customer-standing';

describe('the application workflow table', () => {
  it('names only known statuses and actions, and never repeats a move', () => {
    for (const t of TRANSITIONS) {
      expect(APPLICATION_STATUSES).toContain(t.from);
      expect(APPLICATION_STATUSES).toContain(t.to);
      expect(APPLICATION_ACTIONS).toContain(t.action);
      expect(t.from).not.toBe(t.to);
    }
    const keys = TRANSITIONS.map((t) => `${t.from}>${t.to}>${t.action}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('reaches every status from draft', () => {
    const seen = new Set<string>(['draft']);
    for (let grew = true; grew;) {
      grew = false;
      for (const t of TRANSITIONS)
        if (seen.has(t.from) && !seen.has(t.to)) {
          seen.add(t.to);
          grew = true;
        }
    }
    expect([...seen].sort()).toEqual([...APPLICATION_STATUSES].sort());
  });

  it('ends in exactly the terminal statuses', () => {
    expect([...TERMINAL_STATUSES].sort()).toEqual(
      ['accepted', 'cancelled', 'declined', 'expired', 'rejected_by_customer', 'withdrawn'].sort(),
    );
    for (const s of TERMINAL_STATUSES) expect(transitionsFrom(s)).toEqual([]);
  });

  it('allows the documented moves and nothing else', () => {
    expect(findTransition('draft', 'submitted', 'SubmitApplication', 'key')).not.toBeNull();
    expect(findTransition('submitted', 'checks_in_progress', 'RunChecks', 'key')).not.toBeNull();
    expect(findTransition('checks_in_progress', 'approved', 'ChecksCompleted', 'rules')).not.toBeNull();
    expect(findTransition('under_review', 'counter_offered', 'MakeDecision', 'key')).not.toBeNull();
    expect(findTransition('counter_offered', 'accepted', 'AcceptOffer', 'key')).not.toBeNull();
    // Only the rules leave checks_in_progress for a decision; a person decides under review.
    expect(findTransition('checks_in_progress', 'approved', 'MakeDecision', 'key')).toBeNull();
    expect(findTransition('checks_in_progress', 'approved', 'ChecksCompleted', 'key')).toBeNull();
    // Cancel only before the checks; withdraw not after a decision; nothing out of a final status.
    expect(findTransition('under_review', 'cancelled', 'CancelApplication', 'key')).toBeNull();
    expect(findTransition('approved', 'withdrawn', 'WithdrawApplication', 'key')).toBeNull();
    expect(findTransition('declined', 'approved', 'MakeDecision', 'key')).toBeNull();
    expect(findTransition('draft', 'approved', 'MakeDecision', 'key')).toBeNull();
    // A status the table does not know (a legacy row's) has no moves.
    expect(transitionsFrom('hijacked')).toEqual([]);
  });

  it("marks the moves that start new business, each needing the customer's standing for its action", () => {
    const business = TRANSITIONS.filter((t) => standingOperationOf(t) !== null).map(
      (t) => `${t.from} -> ${t.to}: ${standingOperationOf(t)}`,
    );
    expect(business).toEqual([
      'draft -> submitted: SubmitApplication',
      'checks_in_progress -> approved: ChecksCompleted',
      'under_review -> approved: MakeDecision',
      'under_review -> counter_offered: MakeDecision',
      'approved -> accepted: AcceptOffer',
      'counter_offered -> accepted: AcceptOffer',
    ]);
    // Each is an operation of the standing table, so the customer's status decides it there.
    for (const t of TRANSITIONS)
      if (t.business) expect(STANDING_OPERATIONS as readonly string[]).toContain(t.action);
    // Declining, cancelling, withdrawing and the rest start nothing.
    expect(findTransition('under_review', 'declined', 'MakeDecision', 'key')?.business).toBe(false);
    expect(findTransition('submitted', 'checks_in_progress', 'RunChecks', 'key')?.business).toBe(false);
  });

  it('gives a check run a lease, after which another run may take over', () => {
    const claimed = new Date('2026-11-23T10:00:00Z');
    expect(checksClaimExpired(claimed, new Date(claimed.getTime() + CHECKS_LEASE_MS - 1))).toBe(false);
    expect(checksClaimExpired(claimed, new Date(claimed.getTime() + CHECKS_LEASE_MS))).toBe(true);
    expect(checksClaimExpired(null, claimed)).toBe(true);
  });
});
