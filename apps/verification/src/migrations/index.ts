import { OutboxFillfactor1763740000000 } from './1763740000000-outbox-fillfactor';
import { InitVerification1763703000000 } from './1763703000000-init-verification';
import { SharedKeyTable1763720000000 } from './1763720000000-shared-key-table';
import { CaseLifecycle1763890000000 } from './1763890000000-case-lifecycle';
import { CaseApplicant1763900000001, WebhookTables1763900000000 } from './1763900000000-webhook-tables';
import { Documents1763910000000 } from './1763910000000-documents';
import { WebhookEnabled1763910500000 } from './1763910500000-webhook-enabled';
import { Portal1763920000000 } from './1763920000000-portal';
import { Checks1763930000000 } from './1763930000000-checks';
import { SummaryReview1763940000000 } from './1763940000000-summary-review';
import { ReportIssuances1763950000000 } from './1763950000000-report-issuances';
import { Access1763960000000 } from './1763960000000-access';
import { OutboxTraceContext1764100000000 } from './1764100000000-outbox-trace-context';
import { SharedIdempotency1764270000000 } from './1764270000000-shared-idempotency';
import { TenantIsolation1764300000000 } from './1764300000000-tenant-isolation';
import { WebhookTenantIsolation1764310000000 } from './1764310000000-webhook-tenant-isolation';

export const VERIFICATION_MIGRATIONS = [
  InitVerification1763703000000,
  SharedKeyTable1763720000000,
  OutboxFillfactor1763740000000,
  CaseLifecycle1763890000000,
  WebhookTables1763900000000,
  CaseApplicant1763900000001,
  Documents1763910000000,
  WebhookEnabled1763910500000,
  Portal1763920000000,
  Checks1763930000000,
  SummaryReview1763940000000,
  ReportIssuances1763950000000,
  Access1763960000000,
  OutboxTraceContext1764100000000,
  SharedIdempotency1764270000000,
  TenantIsolation1764300000000,
  WebhookTenantIsolation1764310000000,
];
