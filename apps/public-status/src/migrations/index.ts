import { OutboxFillfactor1763740000000 } from './1763740000000-outbox-fillfactor';
import { InitPublicStatus1763704000000 } from './1763704000000-init-public-status';
import { HealthEvents1763780000000 } from './1763780000000-health-events';
import { StatusModel1763800000000 } from './1763800000000-status-model';
import { Subscribers1763820000000 } from './1763820000000-subscribers';
import { WebhookTables1763820000001 } from './1763820000001-webhook-tables';
import { Monitoring1763810000000 } from './1763810000000-monitoring';
import { AutomaticIncidents1763830000000 } from './1763830000000-automatic-incidents';
import { SubscriberLanguage1763840000000 } from './1763840000000-subscriber-language';
import { WebhookEnabled1763850000000 } from './1763850000000-webhook-enabled';
import { OutboxTraceContext1764100000000 } from './1764100000000-outbox-trace-context';
import { TenantIsolation1764300000000 } from './1764300000000-tenant-isolation';
import { WebhookTenantIsolation1764310000000 } from './1764310000000-webhook-tenant-isolation';

export const PUBLIC_STATUS_MIGRATIONS = [
  InitPublicStatus1763704000000,
  OutboxFillfactor1763740000000,
  HealthEvents1763780000000,
  StatusModel1763800000000,
  Monitoring1763810000000,
  Subscribers1763820000000,
  WebhookTables1763820000001,
  AutomaticIncidents1763830000000,
  SubscriberLanguage1763840000000,
  WebhookEnabled1763850000000,
  OutboxTraceContext1764100000000,
  TenantIsolation1764300000000,
  WebhookTenantIsolation1764310000000,
];
