/**
 * The case status machine (docs/verification-api.md, "Case statuses"). Names follow the spec's
 * PascalCase `AwaitingApplicant`. The table is the single source of the allowed moves: the service
 * refuses any other with CASE_TRANSITION_NOT_ALLOWED (409).
 */
export const CASE_STATUSES = [
  'AwaitingApplicant',
  'DocumentsReceived',
  'Checking',
  'ManualReview',
  'Approved',
  'Declined',
  'Cancelled',
  'Expired',
] as const;

export type CaseStatus = (typeof CASE_STATUSES)[number];

export const CASE_TRANSITIONS: Readonly<Record<CaseStatus, readonly CaseStatus[]>> = {
  AwaitingApplicant: ['DocumentsReceived', 'Cancelled', 'Expired'],
  DocumentsReceived: ['Checking', 'AwaitingApplicant', 'Cancelled', 'Expired'],
  Checking: ['ManualReview', 'Approved', 'Declined', 'Cancelled'],
  ManualReview: ['Approved', 'Declined', 'Cancelled'],
  Approved: [],
  Declined: [],
  Cancelled: [],
  Expired: [],
};

export const isCaseStatus = (s: string): s is CaseStatus => (CASE_STATUSES as readonly string[]).includes(s);

export const canMove = (from: CaseStatus, to: CaseStatus): boolean => CASE_TRANSITIONS[from].includes(to);
