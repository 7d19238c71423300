import { ENVELOPE_NOTE, tenantKeyScheme, type ApiReferenceDefinition } from '@platform/api-docs';
import { CommonError } from '@platform/envelope';
import { idempotencyError } from '@platform/idempotency';
import { accountingError } from './accounting/accounting.errors';
import { apiKeysError } from './api-keys/api-keys.errors';
import { LendingAppModule } from './app.module';
import { applicationError } from './applications/applications.errors';
import { customersError } from './customers/customers.errors';
import { loanError } from './loans/loans.errors';
import { webhooksError } from './webhooks/webhooks.errors';

/** Lending's API reference: docs/openapi/lending.<lang>.json, served by the gateway at /docs/lending. */
export const LENDING_REFERENCE: ApiReferenceDefinition = {
  service: 'lending',
  title: 'Lending platform API',
  version: '1',
  description: [
    'Applications, customers, loans and their money movements for the lenders using the platform.',
    ENVELOPE_NOTE,
    'Partner calls: `X-Api-Key` and `Organization-Id`; each key holds read and write scopes per area.',
    'Versions: send `Api-Version: 1` (or omit it for the current version); every answer names its version in `Api-Version`, and an unknown one is refused with `LENDING_API_VERSION_UNSUPPORTED`.',
  ].join('\n\n'),
  tags: {
    Applications: 'Loan applications of the organization.',
    ApiKeys: "The organization's partner keys: issue, reissue, revoke, list, and each key's request log.",
    Customers: 'Borrowers of the organization: profile, identifiers, documents, consents and bank details.',
    Loans:
      'Loan products, loan contracts, schedules, payments with their allocation, and the double-entry ledger every money operation posts to.',
    Reporting:
      'The daily accounting file: the accounting events of each closed business day as CSV with its SHA-256.',
    Webhooks:
      'Webhook subscriptions of the organization: signed deliveries of notifications, bureau and accounting events, and their delivery log.',
  },
  module: LendingAppModule.register({}),
  schemes: {
    'partner-key': tenantKeyScheme('X-Api-Key', "The partner's key; send `Organization-Id` with it."),
  },
  denied: [CommonError.SCOPE_MISSING],
  errors: [
    apiKeysError,
    applicationError,
    customersError,
    loanError,
    idempotencyError,
    webhooksError,
    accountingError,
  ],
};
