import { OutboxFillfactor1763740000000 } from './1763740000000-outbox-fillfactor';
import { InitLending1763702000000 } from './1763702000000-init-lending';
import { SharedKeyTable1763720000000 } from './1763720000000-shared-key-table';
import { TenantIsolation1763850000000 } from './1763850000000-tenant-isolation';
import { ApplicationsCompositeKeys1763875000000 } from './1763875000000-applications-composite-keys';
import { CustomersCore1763855000000 } from './1763855000000-customers-core';
import { ApiKeyRequests1763880000000 } from './1763880000000-api-key-requests';
import { ApplicationsWorkflow1763870000000 } from './1763870000000-applications-workflow';
import { CustomerProfile1763860000000 } from './1763860000000-customer-profile';
import { CustomerIdentifiers1763861000000 } from './1763861000000-customer-identifiers';
import { CustomerDocuments1763862000000 } from './1763862000000-customer-documents';
import { CustomerConsents1763863000000 } from './1763863000000-customer-consents';
import { CustomerBankAccounts1763864000000 } from './1763864000000-customer-bank-accounts';
import { LoansLedger1764000000000 } from './1764000000000-loans-ledger';
import { LoanAccruals1764010000000 } from './1764010000000-loan-accruals';
import { LendingWebhooks1764020000000 } from './1764020000000-lending-webhooks';
import { AccountingFile1764021000000 } from './1764021000000-accounting-file';
import { OutboxTraceContext1764100000000 } from './1764100000000-outbox-trace-context';
import { DayCountsInterestMethod1764240000000 } from './1764240000000-day-counts-interest-method';
import { ProductRequiredConsents1764230000000 } from './1764230000000-product-required-consents';
import { OneRoundTripLocks1764250000000 } from './1764250000000-one-round-trip-locks';
import { SharedIdempotency1764260000000 } from './1764260000000-shared-idempotency';
import { ApiKeysTenantGrant1764300000000 } from './1764300000000-api-keys-tenant-grant';

export const LENDING_MIGRATIONS = [
  InitLending1763702000000,
  SharedKeyTable1763720000000,
  OutboxFillfactor1763740000000,
  TenantIsolation1763850000000,
  CustomersCore1763855000000,
  ApiKeyRequests1763880000000,
  ApplicationsWorkflow1763870000000,
  CustomerProfile1763860000000,
  CustomerIdentifiers1763861000000,
  CustomerDocuments1763862000000,
  CustomerConsents1763863000000,
  CustomerBankAccounts1763864000000,
  ApplicationsCompositeKeys1763875000000,
  LoansLedger1764000000000,
  LoanAccruals1764010000000,
  LendingWebhooks1764020000000,
  AccountingFile1764021000000,
  OutboxTraceContext1764100000000,
  DayCountsInterestMethod1764240000000,
  ProductRequiredConsents1764230000000,
  OneRoundTripLocks1764250000000,
  SharedIdempotency1764260000000,
  ApiKeysTenantGrant1764300000000,
];
