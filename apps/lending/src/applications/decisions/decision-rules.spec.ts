import { CHECK_STEPS, type CheckStatus, type CheckStep } from '../checks/check-steps';
import { AUTO_APPROVE_MIN_SCORE, rulesVerdict } from './decision-rules';

const steps = (over: Partial<Record<CheckStep, CheckStatus>> = {}) =>
  CHECK_STEPS.map((step) => ({ step, status: over[step] ?? ('passed' as CheckStatus) }));

describe('the decision rules', () => {
  it('approve when every step passed and the score reaches the bar', () => {
    expect(rulesVerdict(steps(), AUTO_APPROVE_MIN_SCORE)).toEqual({
      verdict: 'approve',
      reasons: ['ALL_CHECKS_PASSED', 'SCORE_ABOVE_THRESHOLD'],
    });
  });

  it('leave a passing application with a score under the bar to a person', () => {
    expect(rulesVerdict(steps(), AUTO_APPROVE_MIN_SCORE - 1)).toEqual({ verdict: 'review', waitingOn: [] });
    expect(rulesVerdict(steps(), null).verdict).toBe('review');
  });

  it('decline on any failed step, with every failed step as a reason', () => {
    expect(rulesVerdict(steps({ aml_screening: 'failed' }), 800)).toEqual({
      verdict: 'decline',
      reasons: ['AML_MATCH'],
    });
    expect(
      rulesVerdict(
        steps({ identity_verification: 'failed', affordability: 'failed', credit_bureau: 'error' }),
        800,
      ),
    ).toEqual({ verdict: 'decline', reasons: ['IDENTITY_NOT_CONFIRMED', 'NOT_AFFORDABLE'] });
  });

  it('send needs_review and error steps to a person, naming them', () => {
    expect(rulesVerdict(steps({ credit_bureau: 'needs_review', aml_screening: 'error' }), 800)).toEqual({
      verdict: 'review',
      waitingOn: [
        { step: 'credit_bureau', status: 'needs_review' },
        { step: 'aml_screening', status: 'error' },
      ],
    });
  });

  it('never approve with a step missing', () => {
    expect(rulesVerdict(steps().slice(1), 900).verdict).toBe('review');
  });
});
