/**
 * Statuses of the customers area and the moves between them (docs/lending/customers.md). Their names
 * are localised from i18n/<lang>/customers.json (`statuses.<dictionary>.<status>`).
 */

export const CUSTOMER_STATUSES = ['active', 'blocked', 'closed'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

/**
 * `blocked` stops new business with the customer (a fraud suspicion, a court order) and can be lifted;
 * `closed` ends the relationship and is final: a closed customer's data is kept but no longer changed
 * (a consent can still be withdrawn).
 */
export const CUSTOMER_TRANSITIONS: Readonly<Record<CustomerStatus, readonly CustomerStatus[]>> = {
  active: ['blocked', 'closed'],
  blocked: ['active', 'closed'],
  closed: [],
};

export const DOCUMENT_STATUSES = ['uploaded', 'verified', 'rejected'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** A verified document may still be rejected later (found forged); a rejected one stays rejected. */
export const DOCUMENT_TRANSITIONS: Readonly<Record<DocumentStatus, readonly DocumentStatus[]>> = {
  uploaded: ['verified', 'rejected'],
  verified: ['rejected'],
  rejected: [],
};

export const DOCUMENT_TYPES = [
  'identity_document',
  'proof_of_address',
  'income_statement',
  'bank_statement',
  'tax_return',
  'business_registration',
  'signed_agreement',
  'other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
