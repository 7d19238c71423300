import { Organization } from '@platform/tenancy';
import type { ServiceDatabase } from '@platform/persistence';
import { service } from '@platform/registry';
import { IdempotencyKey } from '@platform/idempotency';
import { KeyRequestRecord } from './api-keys/key-request.entity';
import { KeyUsage } from './api-keys/key-usage.entity';
import { LoanApplication } from './applications/application.entity';
import { ApplicationCheck } from './applications/checks/application-check.entity';
import { ApplicationDecision } from './applications/decisions/application-decision.entity';
import { ExternalCall } from './applications/external-calls/external-call.entity';
import { ApplicationStatusChange } from './applications/workflow/status-change.entity';
import { Customer } from './customers/customer.entity';
import { CustomerBankAccount } from './customers/bank-accounts/customer-bank-account.entity';
import { CustomerConsent } from './customers/consents/customer-consent.entity';
import { CustomerDocument } from './customers/documents/customer-document.entity';
import { CustomerIdentifier } from './customers/identifiers/customer-identifier.entity';
import { LoanAccrualState } from './loans/accruals/loan-accrual-state.entity';
import { LoanAccrual } from './loans/accruals/loan-accrual.entity';
import { LedgerLine } from './loans/ledger/ledger-line.entity';
import { LedgerTransaction } from './loans/ledger/ledger-transaction.entity';
import { Loan } from './loans/loan.entity';
import { LoanProduct } from './loans/products/loan-product.entity';
import { LoanInstalment } from './loans/schedule/loan-instalment.entity';
import { LoanScheduleVersion } from './loans/schedule/loan-schedule-version.entity';
import { LENDING_MIGRATIONS } from './migrations';
import { PartnerKey } from './tenancy/lending.tenancy';

/** Lending's schema, entities and migrations (the app and its admin CLI both use this). */
export const LENDING_DATABASE: ServiceDatabase = {
  schema: service('lending').schema,
  entities: [
    Organization,
    PartnerKey,
    LoanApplication,
    Customer,
    CustomerIdentifier,
    CustomerDocument,
    CustomerConsent,
    CustomerBankAccount,
    KeyRequestRecord,
    KeyUsage,
    ApplicationStatusChange,
    ApplicationCheck,
    ApplicationDecision,
    ExternalCall,
    LoanProduct,
    Loan,
    LedgerTransaction,
    LedgerLine,
    LoanInstalment,
    IdempotencyKey,
    LoanAccrual,
    LoanAccrualState,
    LoanScheduleVersion,
  ],
  migrations: LENDING_MIGRATIONS,
};
