import type { Provider } from '@nestjs/common';
import { VerificationConfig } from '../config/verification.config';
import { IDENTITY_PROVIDER, type IdentityProvider } from './identity-provider';
import { SandboxIdentityProvider } from './sandbox.provider';

/** The one place that chooses the identity provider (IDENTITY_PROVIDER); a live adapter joins here. */
export const IDENTITY_PROVIDER_FACTORY: Provider = {
  provide: IDENTITY_PROVIDER,
  inject: [VerificationConfig],
  useFactory: (cfg: VerificationConfig): IdentityProvider => {
    switch (cfg.IDENTITY_PROVIDER) {
      case 'sandbox':
        return new SandboxIdentityProvider();
    }
  },
};
