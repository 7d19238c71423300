import { defineErrors } from '@platform/envelope';

/**
 * The customers area's error reasons (docs/lending/customers.md, "Errors"). Texts:
 * apps/lending/src/i18n/<lang>/customers.json, key `customers.errors.<reason>`.
 */
export enum CustomersError {
  NOT_FOUND = 'CUSTOMER_NOT_FOUND',
  VERSION_CONFLICT = 'CUSTOMER_VERSION_CONFLICT',
  EXTERNAL_ID_TAKEN = 'CUSTOMER_EXTERNAL_ID_TAKEN',
  PROFILE_KIND_MISMATCH = 'CUSTOMER_PROFILE_KIND_MISMATCH',
  DATE_OUT_OF_RANGE = 'CUSTOMER_DATE_OUT_OF_RANGE',
  STATUS_TRANSITION = 'CUSTOMER_STATUS_TRANSITION',
  CLOSED = 'CUSTOMER_CLOSED',
  IDENTIFIER_FORMAT = 'CUSTOMER_IDENTIFIER_FORMAT',
  IDENTIFIER_CHECKSUM = 'CUSTOMER_IDENTIFIER_CHECKSUM',
  IDENTIFIER_TAKEN = 'CUSTOMER_IDENTIFIER_TAKEN',
  IDENTIFIER_NOT_FOUND = 'CUSTOMER_IDENTIFIER_NOT_FOUND',
  DOCUMENT_NOT_FOUND = 'CUSTOMER_DOCUMENT_NOT_FOUND',
  DOCUMENT_TOO_LARGE = 'CUSTOMER_DOCUMENT_TOO_LARGE',
  DOCUMENT_EMPTY = 'CUSTOMER_DOCUMENT_EMPTY',
  DOCUMENT_TYPE_NOT_ALLOWED = 'CUSTOMER_DOCUMENT_TYPE_NOT_ALLOWED',
  DOCUMENT_UPLOAD_ABORTED = 'CUSTOMER_DOCUMENT_UPLOAD_ABORTED',
  DOCUMENT_TRANSITION = 'CUSTOMER_DOCUMENT_TRANSITION',
  /** The row exists, its bytes do not: an operator's problem (storage lost or moved), logged. */
  DOCUMENT_FILE_MISSING = 'CUSTOMER_DOCUMENT_FILE_MISSING',
  CONSENT_NOT_GIVEN = 'CUSTOMER_CONSENT_NOT_GIVEN',
  CONSENT_ALREADY_GIVEN = 'CUSTOMER_CONSENT_ALREADY_GIVEN',
  IBAN_INVALID = 'CUSTOMER_IBAN_INVALID',
  BANK_ACCOUNT_INVALID = 'CUSTOMER_BANK_ACCOUNT_INVALID',
  BANK_ACCOUNT_DUPLICATE = 'CUSTOMER_BANK_ACCOUNT_DUPLICATE',
  BANK_ACCOUNT_NOT_FOUND = 'CUSTOMER_BANK_ACCOUNT_NOT_FOUND',
  /** The customer's status does not allow the operation (customer-standing.ts): no new business. */
  NOT_IN_GOOD_STANDING = 'CUSTOMER_NOT_IN_GOOD_STANDING',
  /** A consent the loan product requires is not in force (never given, or withdrawn). */
  CONSENT_REQUIRED = 'CUSTOMER_CONSENT_REQUIRED',
}

const STATUS: Record<CustomersError, number> = {
  [CustomersError.NOT_FOUND]: 404,
  [CustomersError.VERSION_CONFLICT]: 409,
  [CustomersError.EXTERNAL_ID_TAKEN]: 409,
  [CustomersError.PROFILE_KIND_MISMATCH]: 400,
  [CustomersError.DATE_OUT_OF_RANGE]: 400,
  [CustomersError.STATUS_TRANSITION]: 409,
  [CustomersError.CLOSED]: 409,
  [CustomersError.IDENTIFIER_FORMAT]: 400,
  [CustomersError.IDENTIFIER_CHECKSUM]: 400,
  [CustomersError.IDENTIFIER_TAKEN]: 409,
  [CustomersError.IDENTIFIER_NOT_FOUND]: 404,
  [CustomersError.DOCUMENT_NOT_FOUND]: 404,
  [CustomersError.DOCUMENT_TOO_LARGE]: 413,
  [CustomersError.DOCUMENT_EMPTY]: 400,
  [CustomersError.DOCUMENT_TYPE_NOT_ALLOWED]: 415,
  [CustomersError.DOCUMENT_UPLOAD_ABORTED]: 400,
  [CustomersError.DOCUMENT_TRANSITION]: 409,
  [CustomersError.DOCUMENT_FILE_MISSING]: 500,
  [CustomersError.CONSENT_NOT_GIVEN]: 409,
  [CustomersError.CONSENT_ALREADY_GIVEN]: 409,
  [CustomersError.IBAN_INVALID]: 400,
  [CustomersError.BANK_ACCOUNT_INVALID]: 400,
  [CustomersError.BANK_ACCOUNT_DUPLICATE]: 409,
  [CustomersError.BANK_ACCOUNT_NOT_FOUND]: 404,
  [CustomersError.NOT_IN_GOOD_STANDING]: 409,
  [CustomersError.CONSENT_REQUIRED]: 409,
};

export const customersError = defineErrors<CustomersError>(
  Object.fromEntries(
    Object.values(CustomersError).map((c) => [c, { status: STATUS[c], messageKey: `customers.errors.${c}` }]),
  ) as Record<CustomersError, { status: number; messageKey: string }>,
);
