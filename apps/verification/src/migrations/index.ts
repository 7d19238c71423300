import { OutboxFillfactor1763740000000 } from './1763740000000-outbox-fillfactor';
import { InitVerification1763703000000 } from './1763703000000-init-verification';
import { SharedKeyTable1763720000000 } from './1763720000000-shared-key-table';

export const VERIFICATION_MIGRATIONS = [
  InitVerification1763703000000,
  SharedKeyTable1763720000000,
  OutboxFillfactor1763740000000,
];
