/** What a consent is about, how it was given or withdrawn, and where it stands (docs/lending/customers.md). */

export const CONSENT_TYPES = [
  'personal_data_processing',
  'credit_bureau_request',
  'credit_bureau_reporting',
  'marketing',
  'electronic_signature',
] as const;
export type ConsentType = (typeof CONSENT_TYPES)[number];

export const CONSENT_CHANNELS = ['web', 'mobile', 'branch', 'api'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/** One event of the append-only history; the latest event of a type is the consent's state. */
export const CONSENT_ACTIONS = ['given', 'withdrawn'] as const;
export type ConsentAction = (typeof CONSENT_ACTIONS)[number];
