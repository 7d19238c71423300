import { OutboxFillfactor1763740000000 } from './1763740000000-outbox-fillfactor';
import { InitPublicStatus1763704000000 } from './1763704000000-init-public-status';
import { HealthEvents1763780000000 } from './1763780000000-health-events';
import { StatusModel1763800000000 } from './1763800000000-status-model';

export const PUBLIC_STATUS_MIGRATIONS = [
  InitPublicStatus1763704000000,
  OutboxFillfactor1763740000000,
  HealthEvents1763780000000,
  StatusModel1763800000000,
];
