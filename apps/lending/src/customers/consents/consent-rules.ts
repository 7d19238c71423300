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

/**
 * Where one consent type stands for a customer: `none` before its first event, then the latest
 * event's action. The one table of what may be recorded next (docs/lending/customers.md, "Consents"):
 * giving again while given is allowed only for another text version (a new text is re-accepted);
 * withdrawing needs a consent in force. Only `given` counts for a product's `requiredConsents`.
 */
export const CONSENT_STATES = ['none', 'given', 'withdrawn'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];

export const CONSENT_TRANSITIONS: Readonly<Record<ConsentState, readonly ConsentAction[]>> = {
  none: ['given'],
  given: ['given', 'withdrawn'],
  withdrawn: ['given'],
};

export const consentStateOf = (latest: { action: ConsentAction } | null | undefined): ConsentState =>
  latest ? latest.action : 'none';

export const canRecordConsent = (state: ConsentState, action: ConsentAction): boolean =>
  CONSENT_TRANSITIONS[state].includes(action);
