import type { ServiceDatabase } from '@platform/persistence';
import { service } from '@platform/registry';
import { PUBLIC_STATUS_MIGRATIONS } from './migrations';
import { Business } from './catalog/business.entity';
import { StatusProduct } from './catalog/status-product.entity';
import { StatusResource } from './catalog/status-resource.entity';
import { IncidentUpdate } from './incidents/incident-update.entity';
import { Incident } from './incidents/incident.entity';
import { Maintenance } from './maintenance/maintenance.entity';
import { StateHistoryRow } from './status/state-history.entity';
import { StatusKey } from './tenancy/public-status.tenancy';
import { UptimeDay } from './uptime/uptime-day.entity';

/** Public status's schema, entities and migrations (the app and its admin CLI both use this). */
export const PUBLIC_STATUS_DATABASE: ServiceDatabase = {
  schema: service('public-status').schema,
  entities: [
    Business,
    StatusKey,
    StatusProduct,
    StatusResource,
    StateHistoryRow,
    Incident,
    IncidentUpdate,
    Maintenance,
    UptimeDay,
  ],
  migrations: PUBLIC_STATUS_MIGRATIONS,
};
