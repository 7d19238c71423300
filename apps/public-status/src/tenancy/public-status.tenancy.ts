import { TenancyModule, apiKeyEntity } from '@platform/tenancy';
import { Business } from '../catalog/business.entity';
import { PublicStatusConfig } from '../config/public-status.config';
import { PUBLIC_STATUS_SCOPES } from './scopes';

/**
 * Management keys (`X-Api-Key`), owned by businesses (`Business-Id`). `X-Api-Key` on purpose: the
 * gateway's micro-cache never stores or serves a request carrying it, so a management GET is never
 * answered from (or into) the anonymous cache.
 */
export const StatusKey = apiKeyEntity(() => Business);

export const PublicStatusTenancy = TenancyModule.forService({
  keyPrefix: 'pst',
  owner: Business,
  ownerNoun: 'business',
  keyEntity: StatusKey,
  scopes: PUBLIC_STATUS_SCOPES,
  scheme: 'status-key',
  keyHeader: 'X-Api-Key',
  config: PublicStatusConfig,
  ownerHeader: 'Business-Id',
});
