import { OutboxFillfactor1763740000000 } from './1763740000000-outbox-fillfactor';
import { InitVerification1763703000000 } from './1763703000000-init-verification';
import { SharedKeyTable1763720000000 } from './1763720000000-shared-key-table';
import { CaseLifecycle1763890000000 } from './1763890000000-case-lifecycle';
import { CaseApplicant1763900000001, WebhookTables1763900000000 } from './1763900000000-webhook-tables';

export const VERIFICATION_MIGRATIONS = [
  InitVerification1763703000000,
  SharedKeyTable1763720000000,
  OutboxFillfactor1763740000000,
  CaseLifecycle1763890000000,
  WebhookTables1763900000000,
  CaseApplicant1763900000001,
];
