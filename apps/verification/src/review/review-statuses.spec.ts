import {
  ACTIVE_REVIEW_STATUSES,
  DECISION_OUTCOME,
  REVIEW_TASK_STATUSES,
  REVIEW_TASK_TRANSITIONS,
  canMoveTask,
  isActiveReviewStatus,
  isReviewTaskStatus,
} from './review-statuses';
import { CASE_TRANSITIONS } from '../cases/case-statuses';

describe('review task status machine', () => {
  it('moves only as the table says', () => {
    expect(canMoveTask('Open', 'InProgress')).toBe(true);
    expect(canMoveTask('InProgress', 'InProgress')).toBe(true);
    expect(canMoveTask('Open', 'Approved')).toBe(true);
    expect(canMoveTask('InProgress', 'Declined')).toBe(true);
    expect(canMoveTask('Open', 'Cancelled')).toBe(true);
    expect(canMoveTask('InProgress', 'Open')).toBe(false);
    expect(canMoveTask('Open', 'Open')).toBe(false);
  });

  it('decided and cancelled tasks are final; exactly Open and InProgress are active', () => {
    for (const s of REVIEW_TASK_STATUSES) {
      const final = REVIEW_TASK_TRANSITIONS[s].length === 0;
      expect([s, final]).toEqual([s, !isActiveReviewStatus(s)]);
    }
    expect([...ACTIVE_REVIEW_STATUSES]).toEqual(['Open', 'InProgress']);
  });

  it('every target is a known status', () => {
    for (const targets of Object.values(REVIEW_TASK_TRANSITIONS))
      for (const t of targets) expect(isReviewTaskStatus(t)).toBe(true);
    expect(isReviewTaskStatus('Done')).toBe(false);
  });

  it('a decision leads to a final task status and a case status ManualReview may move to', () => {
    for (const o of Object.values(DECISION_OUTCOME)) {
      expect(REVIEW_TASK_TRANSITIONS[o.task]).toEqual([]);
      expect(CASE_TRANSITIONS.ManualReview).toContain(o.case);
      expect(CASE_TRANSITIONS[o.case]).toEqual([]);
    }
  });
});
