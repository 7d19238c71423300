import { ApiProperty } from '@nestjs/swagger';
import { SUPPORTED_LANGUAGES } from '@platform/i18n';
import { BANK_ACCOUNT_FORMATS } from '../bank-accounts/customer-bank-account.entity';
import { STANDING_OPERATIONS } from '../customer-standing';
import { CUSTOMER_STATUSES } from '../customer-statuses';
import { CUSTOMER_KINDS, GENDERS } from '../customer.entity';
import { IDENTIFIER_TYPES } from '../identifiers/identifier-rules';

const NULLABLE_TEXT = { nullable: true, type: String } as const;
const NULLABLE_DATE = { nullable: true, type: String, format: 'date' } as const;

export class AddressResponse {
  @ApiProperty({ example: 'KZ' }) country: string;
  @ApiProperty({ required: false, example: 'Almaty' }) region?: string;
  @ApiProperty({ required: false, example: 'Almaty' }) city?: string;
  @ApiProperty({ example: 'Abai Ave 10, apt 5' }) line1: string;
  @ApiProperty({ required: false }) line2?: string;
  @ApiProperty({ required: false, example: '050000' }) postalCode?: string;
}

export class IndividualProfileResponse {
  @ApiProperty({ type: String, nullable: true, example: 'Aigerim' }) firstName: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Nurlanova' }) lastName: string | null;
  @ApiProperty(NULLABLE_TEXT) middleName: string | null;
  @ApiProperty(NULLABLE_DATE) birthDate: string | null;
  @ApiProperty({ enum: GENDERS, nullable: true }) gender: string | null;
  @ApiProperty(NULLABLE_TEXT) citizenship: string | null;
}

export class BusinessProfileResponse {
  @ApiProperty({ type: String, nullable: true, example: 'Dala Trade LLP' }) legalName: string | null;
  @ApiProperty(NULLABLE_TEXT) tradeName: string | null;
  @ApiProperty(NULLABLE_TEXT) registrationNumber: string | null;
  @ApiProperty(NULLABLE_TEXT) registrationCountry: string | null;
  @ApiProperty(NULLABLE_DATE) registrationDate: string | null;
  @ApiProperty(NULLABLE_TEXT) legalForm: string | null;
}

export class IdentifierResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) customerId: string;
  @ApiProperty({ enum: IDENTIFIER_TYPES }) type: string;
  @ApiProperty({ example: 'KZ' }) country: string;
  @ApiProperty({ example: '900101300007', description: 'Normalised: upper case, without separators' })
  value: string;
  @ApiProperty({ example: 'KZ_IIN', description: 'The rule that accepted the value' }) scheme: string;
  @ApiProperty(NULLABLE_DATE) issueDate: string | null;
  @ApiProperty(NULLABLE_DATE) expiryDate: string | null;
  @ApiProperty(NULLABLE_TEXT) issuedBy: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class BankAccountResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) customerId: string;
  @ApiProperty({ enum: BANK_ACCOUNT_FORMATS }) format: string;
  @ApiProperty({ ...NULLABLE_TEXT, example: 'KZ86125KZT5004100100' }) iban: string | null;
  @ApiProperty(NULLABLE_TEXT) accountNumber: string | null;
  @ApiProperty(NULLABLE_TEXT) bankCode: string | null;
  @ApiProperty(NULLABLE_TEXT) bic: string | null;
  @ApiProperty(NULLABLE_TEXT) bankName: string | null;
  @ApiProperty({ example: 'KZ' }) country: string;
  @ApiProperty({ example: 'KZT' }) currency: string;
  @ApiProperty({ example: 'Aigerim Nurlanova' }) holderName: string;
  @ApiProperty({ example: 'IBAN', description: 'The rule that accepted the account' }) scheme: string;
  @ApiProperty() primary: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** A customer as lists show it. */
export class CustomerSummaryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: CUSTOMER_KINDS }) kind: string;
  @ApiProperty({ enum: CUSTOMER_STATUSES }) status: string;
  @ApiProperty({ example: 'Active', description: 'The status in the request language' }) statusName: string;
  @ApiProperty(NULLABLE_TEXT) statusReason: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) statusChangedAt: string | null;
  @ApiProperty(NULLABLE_TEXT) externalId: string | null;
  @ApiProperty({ example: 'Aigerim Serikovna Nurlanova', description: 'Full name or legal name' })
  displayName: string;
  @ApiProperty({ type: IndividualProfileResponse, nullable: true })
  individual: IndividualProfileResponse | null;
  @ApiProperty({ type: BusinessProfileResponse, nullable: true }) business: BusinessProfileResponse | null;
  @ApiProperty(NULLABLE_TEXT) email: string | null;
  @ApiProperty(NULLABLE_TEXT) phone: string | null;
  @ApiProperty({ enum: SUPPORTED_LANGUAGES, nullable: true }) preferredLanguage: string | null;
  @ApiProperty({ type: AddressResponse, nullable: true }) address: AddressResponse | null;
  @ApiProperty({ example: 1, description: 'Send it back with a change to refuse lost updates' })
  version: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** A customer with its identifiers and bank accounts. */
export class CustomerResponse extends CustomerSummaryResponse {
  @ApiProperty({ type: [IdentifierResponse] }) identifiers: IdentifierResponse[];
  @ApiProperty({ type: [BankAccountResponse] }) bankAccounts: BankAccountResponse[];
}

export class StatusNameResponse {
  @ApiProperty({ example: 'blocked' }) status: string;
  @ApiProperty({ example: 'Blocked' }) statusName: string;
}

/** A status of a dictionary, with where it may go next. */
export class StatusDictionaryResponse extends StatusNameResponse {
  @ApiProperty({ type: [StatusNameResponse], description: 'Allowed next statuses; none: final' })
  next: StatusNameResponse[];
}

/** A customer status: where it may go next and what business it allows (customer-standing.ts). */
export class CustomerStatusResponse extends StatusDictionaryResponse {
  @ApiProperty({
    enum: STANDING_OPERATIONS,
    isArray: true,
    description:
      "The operations that may start for a customer in this status; any other is refused with 409 CUSTOMER_NOT_IN_GOOD_STANDING, except the rules' approval after the checks, which is held for a person (under_review)",
  })
  allows: string[];
}
