import type { Affordability, AffordabilityCalculator, AffordabilityInput } from './check-providers';

/** The rate the installment is estimated at before a rate is offered: a stress rate, 24% a year. */
export const REFERENCE_ANNUAL_RATE_BPS = 2400;
/** Debt-to-income at or below this is affordable; up to MARGINAL_DTI a person decides; above, not. */
export const AFFORDABLE_DTI = 0.5;
export const MARGINAL_DTI = 0.65;

/** The monthly annuity payment of `amount` over `months` at `annualRateBps`, rounded up. */
export function annuityInstallment(amount: number, months: number, annualRateBps: number): number {
  const r = annualRateBps / 10_000 / 12;
  if (r === 0) return Math.ceil(amount / months);
  return Math.ceil((amount * r) / (1 - (1 + r) ** -months));
}

/**
 * Affordability, computed in-house (deterministic in every mode): the requested loan's installment at
 * the reference rate, added to the declared expenses and the bureau's existing debt payments, against
 * the declared income.
 */
export class InHouseAffordabilityCalculator implements AffordabilityCalculator {
  readonly name = 'in-house-affordability';

  assess(input: AffordabilityInput): Affordability {
    const installment = annuityInstallment(input.amount, input.termMonths, REFERENCE_ANNUAL_RATE_BPS);
    const outgoing = input.monthlyExpenses + input.existingDebtPayments + installment;
    const dti =
      input.monthlyIncome > 0 ? Math.round((outgoing / input.monthlyIncome) * 10_000) / 10_000 : null;
    const outcome =
      dti === null || dti > MARGINAL_DTI ? 'unaffordable' : dti > AFFORDABLE_DTI ? 'marginal' : 'affordable';
    return {
      installment,
      referenceAnnualRateBps: REFERENCE_ANNUAL_RATE_BPS,
      debtToIncome: dti,
      disposableIncome: input.monthlyIncome - outgoing,
      outcome,
    };
  }
}
