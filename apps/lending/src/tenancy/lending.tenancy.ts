import { LendingConfig } from '../config/lending.config';
import { Organization, TenancyModule, apiKeyEntity } from '@platform/tenancy';
import { LENDING_SCOPES } from './scopes';

/** Partner keys (`X-Api-Key`), owned by organizations (`Organization-Id`). */
export const PartnerKey = apiKeyEntity(() => Organization);

export const LendingTenancy = TenancyModule.forService({
  keyPrefix: 'lnd',
  owner: Organization,
  ownerNoun: 'organization',
  keyEntity: PartnerKey,
  scopes: LENDING_SCOPES,
  scheme: 'partner-key',
  keyHeader: 'X-Api-Key',
  config: LendingConfig,
  ownerHeader: 'Organization-Id',
});
