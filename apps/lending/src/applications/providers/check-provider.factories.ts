import type { Provider } from '@nestjs/common';
import { LendingConfig } from '../../config/lending.config';
import { InHouseAffordabilityCalculator } from './affordability.calculator';
import {
  AFFORDABILITY_CALCULATOR,
  AML_SCREENING_PROVIDER,
  CREDIT_BUREAU_PROVIDER,
  IDENTITY_VERIFICATION_PROVIDER,
  SCORING_PROVIDER,
} from './check-providers';
import {
  StubAmlScreeningProvider,
  StubCreditBureauProvider,
  StubIdentityVerificationProvider,
  StubScoringProvider,
} from './stub-providers';

/**
 * The one place that chooses the check providers (LENDING_PROVIDERS). A live adapter replaces its
 * stub here; until one exists, `live` fails at boot rather than pretending a check ran.
 */
function chosen(token: symbol, what: string, stub: () => object): Provider {
  return {
    provide: token,
    inject: [LendingConfig],
    useFactory: (cfg: LendingConfig) => {
      if (cfg.LENDING_PROVIDERS === 'stub') return stub();
      throw new Error(`LENDING_PROVIDERS=live: this build has no live ${what} adapter yet`);
    },
  };
}

export const CHECK_PROVIDERS: Provider[] = [
  chosen(
    IDENTITY_VERIFICATION_PROVIDER,
    'identity verification',
    () => new StubIdentityVerificationProvider(),
  ),
  chosen(CREDIT_BUREAU_PROVIDER, 'credit bureau', () => new StubCreditBureauProvider()),
  chosen(AML_SCREENING_PROVIDER, 'AML screening', () => new StubAmlScreeningProvider()),
  chosen(SCORING_PROVIDER, 'scoring', () => new StubScoringProvider()),
  { provide: AFFORDABILITY_CALCULATOR, useClass: InHouseAffordabilityCalculator },
];
