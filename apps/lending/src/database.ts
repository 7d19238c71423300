import { Organization } from '@platform/tenancy';
import type { ServiceDatabase } from '@platform/persistence';
import { service } from '@platform/registry';
import { LoanApplication } from './applications/application.entity';
import { Customer } from './customers/customer.entity';
import { LENDING_MIGRATIONS } from './migrations';
import { PartnerKey } from './tenancy/lending.tenancy';

/** Lending's schema, entities and migrations (the app and its admin CLI both use this). */
export const LENDING_DATABASE: ServiceDatabase = {
  schema: service('lending').schema,
  entities: [Organization, PartnerKey, LoanApplication, Customer],
  migrations: LENDING_MIGRATIONS,
};
