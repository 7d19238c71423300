/**
 * The stub providers' magic inputs (docs/lending/applications.md, "Stub providers"): the last two
 * characters of the applicant's national id choose what the stubs answer, so a test environment can
 * produce every outcome on purpose and always gets the same answer for the same input. Any other
 * ending: identity confirmed, a clean bureau record, AML clear, score 720 (auto-approval when
 * affordable). A `*_timeout` scenario times out on a step's first attempt only; RunCheck's retry then
 * answers as the default does, like a real provider's transient failure.
 */
export const STUB_SCENARIOS = {
  '11': 'identity_mismatch',
  '12': 'identity_timeout',
  '13': 'identity_not_found',
  '21': 'bureau_no_record',
  '22': 'bureau_adverse_history',
  '23': 'bureau_timeout',
  '31': 'aml_hit',
  '32': 'aml_possible_match',
  '33': 'aml_timeout',
  '41': 'score_medium',
  '42': 'score_low',
  '43': 'scoring_timeout',
} as const;

export type StubScenario = (typeof STUB_SCENARIOS)[keyof typeof STUB_SCENARIOS] | 'default';

export function stubScenario(nationalId: string): StubScenario {
  const ending = nationalId.slice(-2) as keyof typeof STUB_SCENARIOS;
  return Object.prototype.hasOwnProperty.call(STUB_SCENARIOS, ending) ? STUB_SCENARIOS[ending] : 'default';
}
