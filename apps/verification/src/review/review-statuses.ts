/**
 * The manual-review task status machine (docs/verification/manual-review.md, "Task statuses"). The
 * table is the single source of the allowed moves: any other answers REVIEW_TASK_TRANSITION_NOT_ALLOWED
 * (409).
 *
 * | From       | To         | Moved by                                                        |
 * |------------|------------|-----------------------------------------------------------------|
 * | (none)     | Open       | a summary recommending review (origin rule), or by hand (manual) |
 * | Open       | InProgress | assign                                                          |
 * | InProgress | InProgress | assign to someone else (history row, no status change)          |
 * | Open/InProgress | Approved / Declined | decide (the case moves with it)                 |
 * | Open/InProgress | Cancelled | the case reached a final status without the task          |
 */
export const REVIEW_TASK_STATUSES = ['Open', 'InProgress', 'Approved', 'Declined', 'Cancelled'] as const;
export type ReviewTaskStatus = (typeof REVIEW_TASK_STATUSES)[number];

/** Statuses that still wait for a person; at most one task per case is in one of them. */
export const ACTIVE_REVIEW_STATUSES = ['Open', 'InProgress'] as const satisfies readonly ReviewTaskStatus[];

export const REVIEW_TASK_TRANSITIONS: Readonly<Record<ReviewTaskStatus, readonly ReviewTaskStatus[]>> = {
  Open: ['InProgress', 'Approved', 'Declined', 'Cancelled'],
  InProgress: ['InProgress', 'Approved', 'Declined', 'Cancelled'],
  Approved: [],
  Declined: [],
  Cancelled: [],
};

export const REVIEW_ORIGINS = ['rule', 'manual'] as const;
export type ReviewOrigin = (typeof REVIEW_ORIGINS)[number];

export const REVIEW_DECISIONS = ['approve', 'decline'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** The task status and the case status a decision leads to. */
export const DECISION_OUTCOME = {
  approve: { task: 'Approved', case: 'Approved' },
  decline: { task: 'Declined', case: 'Declined' },
} as const satisfies Record<ReviewDecision, { task: ReviewTaskStatus; case: string }>;

export const isReviewTaskStatus = (s: string): s is ReviewTaskStatus =>
  (REVIEW_TASK_STATUSES as readonly string[]).includes(s);

export const isActiveReviewStatus = (s: string): boolean =>
  (ACTIVE_REVIEW_STATUSES as readonly string[]).includes(s);

export const canMoveTask = (from: ReviewTaskStatus, to: ReviewTaskStatus): boolean =>
  REVIEW_TASK_TRANSITIONS[from].includes(to);
