export { type Brand, type OrganizationId, asOrganizationId } from './tenant-id';
export { Organization } from './organization.entity';
export { ApiKeyColumns, apiKeyEntity, type ApiKeyEntity, type KeyOwnerEntity } from './api-key.entity';
export { apiKeyTablesDdl, dropApiKeyTablesDdl } from './tenancy-tables';
export {
  adoptSharedKeyTableDdl,
  adoptSharedKeyTableMigration,
  type LegacyKeyTable,
} from './migrations/adopt-shared-key-table.migration';
export { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options';
export { KeyAuthenticator } from './key-authenticator.service';
export { KeyCache } from './key-cache';
export { TtlCache } from './ttl-cache';
export { OwnersRepository } from './owners.unscoped.repository';
export { ApiKeyGuard } from './api-key.guard';
export {
  TenancyAdminService,
  KeyAdminError,
  type KeyAdminProblem,
  type KeyGrantor,
  type IssuedKey,
  type KeyView,
} from './tenancy-admin.service';
export { tenancyAdminCommands, seedDemoTenant } from './tenancy-admin.commands';
export { TenancyModule } from './tenancy.module';
