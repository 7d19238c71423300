import { OutboxFillfactor1763740000000 } from './1763740000000-outbox-fillfactor';
import { InitPublicStatus1763704000000 } from './1763704000000-init-public-status';

export const PUBLIC_STATUS_MIGRATIONS = [InitPublicStatus1763704000000, OutboxFillfactor1763740000000];
