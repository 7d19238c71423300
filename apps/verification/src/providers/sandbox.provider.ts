import type {
  IdentityProvider,
  ProviderCheckBreakdown,
  ProviderSessionInput,
  ProviderSessionResult,
  ProviderSessionKind,
} from './identity-provider';

/**
 * The sandbox's magic inputs (docs/verification/checks.md, "Sandbox magic inputs"), matched in the
 * case's `applicantName`, case-insensitive, first match in this order. Any other name (or none): clear.
 */
export const SANDBOX_MAGIC = [
  { input: 'Sandbox Error', scenario: 'error' },
  { input: 'Sandbox Reject', scenario: 'rejected' },
  { input: 'Sandbox Consider', scenario: 'consider' },
  { input: 'Sandbox Clear', scenario: 'clear' },
] as const;

export type SandboxScenario = (typeof SANDBOX_MAGIC)[number]['scenario'];

export function sandboxScenario(applicantName: string | null): {
  scenario: SandboxScenario;
  magic: string | null;
} {
  const name = (applicantName ?? '').toLowerCase().replace(/\s+/g, ' ');
  const hit = SANDBOX_MAGIC.find((m) => name.includes(m.input.toLowerCase()));
  return hit ? { scenario: hit.scenario, magic: hit.input } : { scenario: 'clear', magic: null };
}

const clear = (reason: string): ProviderCheckBreakdown => ({ result: 'clear', reason });

/** Per-check answers, as a real provider's breakdown: which check made the session consider/rejected. */
function breakdown(
  kind: ProviderSessionKind,
  scenario: 'clear' | 'consider' | 'rejected',
): Record<string, ProviderCheckBreakdown> {
  if (kind === 'KYC')
    return {
      document: clear('SANDBOX_DOCUMENT_GENUINE'),
      facial_similarity:
        scenario === 'consider'
          ? ({ result: 'consider', reason: 'SANDBOX_FACE_LOW_SIMILARITY' } as const)
          : clear('SANDBOX_FACE_MATCH'),
      watchlist:
        scenario === 'rejected'
          ? ({ result: 'rejected', reason: 'SANDBOX_SANCTIONS_HIT' } as const)
          : clear('SANDBOX_NO_WATCHLIST_HIT'),
    };
  return {
    company_registry: clear('SANDBOX_COMPANY_ACTIVE'),
    beneficial_owners:
      scenario === 'consider'
        ? ({ result: 'consider', reason: 'SANDBOX_OWNERSHIP_UNCLEAR' } as const)
        : clear('SANDBOX_OWNERS_IDENTIFIED'),
    sanctions:
      scenario === 'rejected'
        ? ({ result: 'rejected', reason: 'SANDBOX_SANCTIONED_ENTITY' } as const)
        : clear('SANDBOX_NO_SANCTIONS_HIT'),
  };
}

/**
 * The free sandbox with test checks: deterministic, answers at once and in full, calls nothing. The
 * same input always gets the same answer, so a caller's test environment can produce every outcome.
 */
export class SandboxIdentityProvider implements IdentityProvider {
  readonly name = 'sandbox' as const;

  async startSession(input: ProviderSessionInput): Promise<ProviderSessionResult> {
    const { scenario } = sandboxScenario(input.applicantName);
    if (scenario === 'error')
      return {
        status: 'Failed',
        retryable: true,
        error: 'SANDBOX_PROVIDER_ERROR: the sandbox simulates an outage',
      };
    return { status: 'Completed', result: scenario, breakdown: breakdown(input.kind, scenario) };
  }
}
