import { runAdminCli } from '@platform/persistence';
import { tenancyAdminCommands } from '@platform/tenancy';
import { VerificationConfig } from './config/verification.config';
import { VERIFICATION_DATABASE } from './database';
import { VerificationTenancy } from './tenancy/verification.tenancy';

void runAdminCli({
  service: 'verification',
  config: VerificationConfig,
  database: VERIFICATION_DATABASE,
  imports: [VerificationTenancy],
  commands: tenancyAdminCommands('organization', { demo: { id: 'demo-verifier', name: 'Demo verifier' } }),
});
