import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsISO4217CurrencyCode,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  ValidateNested,
} from 'class-validator';
import { IntField, MaxChars, MinChars } from '@platform/envelope';
import { APPLICATION_CHANNELS } from '../application-channels';
import { MAX_MINOR_UNITS } from '../../common/money-limits';
import { PRODUCT_CODE } from '../../common/dto/product-code';
import { OptionalField } from '../../common/dto/optional-field';

/** Letters, digits and dashes: national ids, passport numbers, tax ids of the six markets. */
export const NATIONAL_ID = /^[A-Za-z0-9-]+$/;
export const MAX_TERM_MONTHS = 600;

/** The loan the customer asks for. */
export class ProductRequest {
  @ApiProperty({ example: 'CONSUMER_CASH', description: "The lender's product code" })
  @IsString()
  @MinChars(1)
  @MaxChars(50)
  @Matches(PRODUCT_CODE)
  productCode: string;

  @ApiProperty({ example: 50000000, description: 'Requested amount in minor units of `currency` (integer)' })
  @IntField({ min: 1, max: MAX_MINOR_UNITS })
  amount: number;

  @ApiProperty({ example: 'KZT', description: 'ISO 4217 currency code' })
  @IsString()
  @IsISO4217CurrencyCode()
  currency: string;

  @ApiProperty({ example: 24, minimum: 1, maximum: MAX_TERM_MONTHS, description: 'Term in months' })
  @IntField({ min: 1, max: MAX_TERM_MONTHS })
  termMonths: number;

  @ApiPropertyOptional({ example: 'Home renovation', description: 'What the money is for' })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(500)
  purpose?: string;
}

/** Who applies, as declared on the form: what the checks run against. */
export class ApplicantRequest {
  @ApiProperty({
    example: '900101300500',
    description:
      "National id (IIN, PINFL, TCKN, DNI...). In the test environment its last two characters choose the stub providers' answers (see the applications page).",
  })
  @IsString()
  @MinChars(4)
  @MaxChars(32)
  @Matches(NATIONAL_ID)
  nationalId: string;

  @ApiProperty({ example: 60000000, description: 'Declared monthly income in minor units' })
  @IntField({ min: 0, max: MAX_MINOR_UNITS })
  monthlyIncome: number;

  @ApiPropertyOptional({
    example: 15000000,
    default: 0,
    description: 'Declared monthly expenses in minor units',
  })
  @OptionalField()
  @IntField({ min: 0, max: MAX_MINOR_UNITS })
  monthlyExpenses?: number;
}

export class CreateApplicationRequest {
  @ApiProperty({ format: 'uuid', description: "One of the organization's customers" })
  @IsUUID()
  customerId: string;

  @ApiProperty({ type: ProductRequest })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ProductRequest)
  product: ProductRequest;

  @ApiProperty({ type: ApplicantRequest })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ApplicantRequest)
  applicant: ApplicantRequest;

  @ApiProperty({ enum: APPLICATION_CHANNELS, description: 'Where the application came from' })
  @IsIn(APPLICATION_CHANNELS)
  channel: string;
}

/** A change to the requested loan: only the fields sent change. */
export class UpdateProductRequest {
  @ApiPropertyOptional({ example: 'CONSUMER_CASH' })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(50)
  @Matches(PRODUCT_CODE)
  productCode?: string;

  @ApiPropertyOptional({ example: 40000000, description: 'Minor units' })
  @OptionalField()
  @IntField({ min: 1, max: MAX_MINOR_UNITS })
  amount?: number;

  @ApiPropertyOptional({ example: 'KZT' })
  @OptionalField()
  @IsString()
  @IsISO4217CurrencyCode()
  currency?: string;

  @ApiPropertyOptional({ example: 36, minimum: 1, maximum: MAX_TERM_MONTHS })
  @OptionalField()
  @IntField({ min: 1, max: MAX_TERM_MONTHS })
  termMonths?: number;

  @ApiPropertyOptional({ example: 'Car purchase' })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(500)
  purpose?: string;
}

/** A change to the declared applicant data: only the fields sent change. */
export class UpdateApplicantRequest {
  @ApiPropertyOptional({ example: '900101300500' })
  @OptionalField()
  @IsString()
  @MinChars(4)
  @MaxChars(32)
  @Matches(NATIONAL_ID)
  nationalId?: string;

  @ApiPropertyOptional({ example: 60000000, description: 'Minor units' })
  @OptionalField()
  @IntField({ min: 0, max: MAX_MINOR_UNITS })
  monthlyIncome?: number;

  @ApiPropertyOptional({ example: 15000000, description: 'Minor units' })
  @OptionalField()
  @IntField({ min: 0, max: MAX_MINOR_UNITS })
  monthlyExpenses?: number;
}

/** UpdateApplication: a draft's fields; what is not sent stays as it is. */
export class UpdateApplicationRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  applicationId: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Another of the organization's customers" })
  @OptionalField()
  @IsUUID()
  customerId?: string;

  @ApiPropertyOptional({ type: UpdateProductRequest })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateProductRequest)
  product?: UpdateProductRequest;

  @ApiPropertyOptional({ type: UpdateApplicantRequest })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateApplicantRequest)
  applicant?: UpdateApplicantRequest;

  @ApiPropertyOptional({ enum: APPLICATION_CHANNELS })
  @OptionalField()
  @IsIn(APPLICATION_CHANNELS)
  channel?: string;
}

/** A named move (SubmitApplication, WithdrawApplication, ...), with an optional reason for the history. */
export class ApplicationActionRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  applicationId: string;

  @ApiPropertyOptional({ example: 'The customer asked by phone', description: 'Kept in the status history' })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(500)
  reason?: string;
}

/** An action on one application that takes nothing else (RunChecks). */
export class ApplicationRefRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  applicationId: string;
}
