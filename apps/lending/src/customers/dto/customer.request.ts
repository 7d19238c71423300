import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IntField, IsCalendarDate, MaxChars, QueryInt } from '@platform/envelope';
import { SUPPORTED_LANGUAGES, type Language } from '@platform/i18n';
import { CUSTOMER_STATUSES, type CustomerStatus } from '../customer-statuses';
import { CUSTOMER_KINDS, GENDERS, type CustomerKind, type Gender } from '../customer.entity';
import { ClearableField, Country, OptionalField, Text, Uuid } from './fields';

/** E.164: `+`, country code, subscriber number; 8 to 15 digits in all. */
export const PHONE = /^\+[1-9]\d{6,14}$/;
const EXTERNAL_ID = /^[\x21-\x7e]+$/;

export class AddressRequest {
  @ApiProperty({ example: 'KZ', description: 'ISO 3166-1 alpha-2' }) @Country() country: string;
  @ApiPropertyOptional({ example: 'Almaty' }) @OptionalField() @Text(100) region?: string;
  @ApiPropertyOptional({ example: 'Almaty' }) @OptionalField() @Text(100) city?: string;
  @ApiProperty({ example: 'Abai Ave 10, apt 5' }) @Text(200) line1: string;
  @ApiPropertyOptional() @OptionalField() @Text(200) line2?: string;
  @ApiPropertyOptional({ example: '050000' }) @OptionalField() @Text(20) postalCode?: string;
}

export class IndividualProfileRequest {
  @ApiProperty({ example: 'Aigerim' }) @Text(100) firstName: string;
  @ApiProperty({ example: 'Nurlanova' }) @Text(100) lastName: string;
  @ApiPropertyOptional({ example: 'Serikovna' }) @OptionalField() @Text(100) middleName?: string;
  @ApiPropertyOptional({ format: 'date', example: '1990-01-01', description: 'From 1900-01-01 to today' })
  @OptionalField()
  @IsCalendarDate()
  birthDate?: string;
  @ApiPropertyOptional({ enum: GENDERS }) @OptionalField() @IsIn(GENDERS) gender?: Gender;
  @ApiPropertyOptional({ example: 'KZ', description: 'ISO 3166-1 alpha-2' })
  @OptionalField()
  @Country()
  citizenship?: string;
}

export class BusinessProfileRequest {
  @ApiProperty({ example: 'Dala Trade LLP' }) @Text(300) legalName: string;
  @ApiPropertyOptional({ example: 'Dala' }) @OptionalField() @Text(200) tradeName?: string;
  @ApiPropertyOptional({ example: '971240001315', description: 'In the state register of the country' })
  @OptionalField()
  @Text(50)
  registrationNumber?: string;
  @ApiPropertyOptional({ example: 'KZ', description: 'ISO 3166-1 alpha-2' })
  @OptionalField()
  @Country()
  registrationCountry?: string;
  @ApiPropertyOptional({ format: 'date', example: '2015-06-01', description: 'From 1800-01-01 to today' })
  @OptionalField()
  @IsCalendarDate()
  registrationDate?: string;
  @ApiPropertyOptional({ example: 'LLP' }) @OptionalField() @Text(100) legalForm?: string;
}

/** The profile of one kind: `individual` for individuals, `business` for businesses. */
export class CreateCustomerRequest {
  @ApiProperty({ enum: CUSTOMER_KINDS, description: 'Fixed at creation' })
  @IsIn(CUSTOMER_KINDS)
  kind: CustomerKind;
  @ApiPropertyOptional({
    example: 'crm-000123',
    description: 'Your own reference, unique in your organization',
  })
  @OptionalField()
  @IsString()
  @MaxChars(100)
  @Matches(EXTERNAL_ID)
  externalId?: string;
  @ApiPropertyOptional({
    type: IndividualProfileRequest,
    description: 'Required when `kind` is `individual`',
  })
  @ValidateIf((o: CreateCustomerRequest) => o.kind === 'individual')
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => IndividualProfileRequest)
  individual?: IndividualProfileRequest;
  @ApiPropertyOptional({ type: BusinessProfileRequest, description: 'Required when `kind` is `business`' })
  @ValidateIf((o: CreateCustomerRequest) => o.kind === 'business')
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => BusinessProfileRequest)
  business?: BusinessProfileRequest;
  @ApiPropertyOptional({ example: 'aigerim@example.kz' })
  @OptionalField()
  @IsEmail()
  @MaxChars(254)
  email?: string;
  @ApiPropertyOptional({ example: '+77011234567', description: 'E.164' })
  @OptionalField()
  @IsString()
  @Matches(PHONE)
  phone?: string;
  @ApiPropertyOptional({ enum: SUPPORTED_LANGUAGES, description: 'For messages to the customer' })
  @OptionalField()
  @IsIn(SUPPORTED_LANGUAGES)
  preferredLanguage?: Language;
  @ApiPropertyOptional({ type: AddressRequest })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressRequest)
  address?: AddressRequest;
}

export class UpdateIndividualProfileRequest {
  @ApiPropertyOptional() @OptionalField() @Text(100) firstName?: string;
  @ApiPropertyOptional() @OptionalField() @Text(100) lastName?: string;
  @ApiPropertyOptional({ nullable: true, type: String }) @ClearableField() @Text(100) middleName?:
    string | null;
  @ApiPropertyOptional({ format: 'date', nullable: true, type: String })
  @ClearableField()
  @IsCalendarDate()
  birthDate?: string | null;
  @ApiPropertyOptional({ enum: GENDERS, nullable: true })
  @ClearableField()
  @IsIn(GENDERS)
  gender?: Gender | null;
  @ApiPropertyOptional({ nullable: true, type: String }) @ClearableField() @Country() citizenship?:
    string | null;
}

export class UpdateBusinessProfileRequest {
  @ApiPropertyOptional() @OptionalField() @Text(300) legalName?: string;
  @ApiPropertyOptional({ nullable: true, type: String }) @ClearableField() @Text(200) tradeName?:
    string | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @ClearableField()
  @Text(50)
  registrationNumber?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @ClearableField()
  @Country()
  registrationCountry?: string | null;
  @ApiPropertyOptional({ format: 'date', nullable: true, type: String })
  @ClearableField()
  @IsCalendarDate()
  registrationDate?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) @ClearableField() @Text(100) legalForm?:
    string | null;
}

/** Only the fields sent change; `null` clears an optional one. `kind` cannot change. */
export class UpdateCustomerRequest {
  @ApiProperty({ format: 'uuid' }) @Uuid() customerId: string;
  @ApiPropertyOptional({
    example: 3,
    description: 'The version you read: the update is refused when the customer has changed since',
  })
  @OptionalField()
  @IntField({ min: 1 })
  version?: number;
  @ApiPropertyOptional({ nullable: true, type: String })
  @ClearableField()
  @IsString()
  @MaxChars(100)
  @Matches(EXTERNAL_ID)
  externalId?: string | null;
  @ApiPropertyOptional({ type: UpdateIndividualProfileRequest })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateIndividualProfileRequest)
  individual?: UpdateIndividualProfileRequest;
  @ApiPropertyOptional({ type: UpdateBusinessProfileRequest })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateBusinessProfileRequest)
  business?: UpdateBusinessProfileRequest;
  @ApiPropertyOptional({ nullable: true, type: String })
  @ClearableField()
  @IsEmail()
  @MaxChars(254)
  email?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @ClearableField()
  @IsString()
  @Matches(PHONE)
  phone?: string | null;
  @ApiPropertyOptional({ enum: SUPPORTED_LANGUAGES, nullable: true })
  @ClearableField()
  @IsIn(SUPPORTED_LANGUAGES)
  preferredLanguage?: Language | null;
  @ApiPropertyOptional({ type: AddressRequest, nullable: true })
  @ClearableField()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressRequest)
  address?: AddressRequest | null;
}

export class ChangeCustomerStatusRequest {
  @ApiProperty({ format: 'uuid' }) @Uuid() customerId: string;
  @ApiProperty({ enum: CUSTOMER_STATUSES }) @IsIn(CUSTOMER_STATUSES) status: CustomerStatus;
  @ApiPropertyOptional({ example: 'Fraud check requested by the security team' })
  @OptionalField()
  @Text(500)
  reason?: string;
  @ApiPropertyOptional({ example: 3 }) @OptionalField() @IntField({ min: 1 }) version?: number;
}

export class CustomerIdQuery {
  @ApiProperty({ format: 'uuid', description: "The customer's id" }) @Uuid() CustomerId: string;
}

export class GetCustomersRequest {
  @ApiPropertyOptional({
    example: 'Nurlanova',
    description:
      'Part of the name, trade name, email, phone or external id, or a whole identifier value (national id, passport, tax id)',
  })
  @ValidateIf((_o: object, v: unknown) => v !== undefined && v !== '')
  @Text(100)
  Search?: string;
  @ApiPropertyOptional({ enum: CUSTOMER_KINDS, description: 'Only customers of this kind' })
  @IsOptional()
  @IsIn(CUSTOMER_KINDS)
  Kind?: CustomerKind;
  @ApiPropertyOptional({ enum: CUSTOMER_STATUSES, description: 'Only customers in this status' })
  @IsOptional()
  @IsIn(CUSTOMER_STATUSES)
  Status?: CustomerStatus;
  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt()
  Offset?: number;
  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 500, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 500 })
  Count?: number;
}

/** Offset and Count of a customer's list. */
export class CustomerPageQuery extends CustomerIdQuery {
  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt()
  Offset?: number;
  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 500, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 500 })
  Count?: number;
}
