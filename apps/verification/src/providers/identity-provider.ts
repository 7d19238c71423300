/**
 * The identity provider behind provider checks (docs/verification/checks.md, "Provider checks"): KYC
 * for individuals, KYB for businesses. `IDENTITY_PROVIDER` selects the adapter; only the sandbox exists.
 */
export const PROVIDER_SESSION_KINDS = ['KYC', 'KYB'] as const;
export type ProviderSessionKind = (typeof PROVIDER_SESSION_KINDS)[number];

export const PROVIDER_SESSION_STATUSES = ['Started', 'Completed', 'Failed'] as const;
export type ProviderSessionStatus = (typeof PROVIDER_SESSION_STATUSES)[number];

/** Onfido's vocabulary: `clear`, `consider` (a human should look), plus `rejected` (the provider declined). */
export const PROVIDER_RESULTS = ['clear', 'consider', 'rejected'] as const;
export type ProviderResult = (typeof PROVIDER_RESULTS)[number];

export const IDENTITY_PROVIDER_NAMES = ['sandbox'] as const;
export type IdentityProviderName = (typeof IDENTITY_PROVIDER_NAMES)[number];

export interface ProviderSessionInput {
  /** Our session id: the provider's idempotency key for this session. */
  sessionId: string;
  kind: ProviderSessionKind;
  applicantName: string | null;
  applicantBirthDate: string | null;
  applicantCountryCode: string;
  externalReferenceId: string;
}

/** One check of a session's breakdown, as the provider reported it. */
export interface ProviderCheckBreakdown {
  result: ProviderResult;
  /** Why, in the provider's words (a stable code). */
  reason: string;
}

export type ProviderSessionResult =
  | { status: 'Completed'; result: ProviderResult; breakdown: Record<string, ProviderCheckBreakdown> }
  /** The provider will answer later (a live adapter's webhook); the sandbox never answers this. */
  | { status: 'Started'; breakdown: Record<string, never> }
  | { status: 'Failed'; retryable: boolean; error: string };

export interface IdentityProvider {
  readonly name: IdentityProviderName;
  startSession(input: ProviderSessionInput): Promise<ProviderSessionResult>;
}

/** Nest token of the configured `IdentityProvider`. */
export const IDENTITY_PROVIDER = Symbol('IDENTITY_PROVIDER');
