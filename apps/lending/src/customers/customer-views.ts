import type { Language } from '@platform/i18n';
import type { CustomerBankAccount } from './bank-accounts/customer-bank-account.entity';
import type { CustomerTexts } from './customer-texts';
import type { Customer } from './customer.entity';
import type {
  BankAccountResponse,
  CustomerSummaryResponse,
  IdentifierResponse,
} from './dto/customer.response';
import type { CustomerIdentifier } from './identifiers/customer-identifier.entity';

/** Rows as the API answers them: camelCase, ISO dates, status with its localised name. */
export function customerSummary(c: Customer, texts: CustomerTexts, lang: Language): CustomerSummaryResponse {
  return {
    id: c.id,
    kind: c.kind,
    status: c.status,
    statusName: texts.customerStatus(c.status, lang),
    statusReason: c.statusReason,
    statusChangedAt: c.statusChangedAt?.toISOString() ?? null,
    externalId: c.externalId,
    displayName: c.displayName,
    individual:
      c.kind === 'individual'
        ? {
            firstName: c.firstName,
            lastName: c.lastName,
            middleName: c.middleName,
            birthDate: c.birthDate,
            gender: c.gender,
            citizenship: c.citizenship,
          }
        : null,
    business:
      c.kind === 'business'
        ? {
            legalName: c.legalName,
            tradeName: c.tradeName,
            registrationNumber: c.registrationNumber,
            registrationCountry: c.registrationCountry,
            registrationDate: c.registrationDate,
            legalForm: c.legalForm,
          }
        : null,
    email: c.email,
    phone: c.phone,
    preferredLanguage: c.preferredLanguage,
    address: c.address,
    version: c.version,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export function identifierView(i: CustomerIdentifier): IdentifierResponse {
  return {
    id: i.id,
    customerId: i.customerId,
    type: i.type,
    country: i.country,
    value: i.value,
    scheme: i.scheme,
    issueDate: i.issueDate,
    expiryDate: i.expiryDate,
    issuedBy: i.issuedBy,
    createdAt: i.createdAt.toISOString(),
  };
}

export function bankAccountView(a: CustomerBankAccount): BankAccountResponse {
  return {
    id: a.id,
    customerId: a.customerId,
    format: a.format,
    iban: a.iban,
    accountNumber: a.accountNumber,
    bankCode: a.bankCode,
    bic: a.bic,
    bankName: a.bankName,
    country: a.country,
    currency: a.currency,
    holderName: a.holderName,
    scheme: a.scheme,
    primary: a.isPrimary,
    createdAt: a.createdAt.toISOString(),
  };
}
