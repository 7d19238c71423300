import type { ServiceDatabase } from '@platform/persistence';
import { service } from '@platform/registry';
import { PUBLIC_STATUS_MIGRATIONS } from './migrations';
import { StatusProduct } from './products/status-product.entity';

/** Public status's schema, entities and migrations (the app and its admin CLI both use this). */
export const PUBLIC_STATUS_DATABASE: ServiceDatabase = {
  schema: service('public-status').schema,
  entities: [StatusProduct],
  migrations: PUBLIC_STATUS_MIGRATIONS,
};
