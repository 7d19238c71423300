import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsObject,
  IsString,
  IsUUID,
  ValidateNested,
} from 'class-validator';
import { IntField, MaxChars, MinChars } from '@platform/envelope';
import { DECISION_OUTCOMES, DECISION_REASONS } from '../decisions/decision-reasons';
import { MAX_MINOR_UNITS } from '../../common/money-limits';
import { MAX_TERM_MONTHS } from './application.request';
import { OptionalField } from '../../common/dto/optional-field';

/** The loan offered: required for a counter-offer, optional for an approval (default: as requested). */
export class OfferRequest {
  @ApiProperty({ example: 40000000, description: 'Offered amount in minor units of the requested currency' })
  @IntField({ min: 1, max: MAX_MINOR_UNITS })
  amount: number;

  @ApiProperty({ example: 36, minimum: 1, maximum: MAX_TERM_MONTHS })
  @IntField({ min: 1, max: MAX_TERM_MONTHS })
  termMonths: number;

  @ApiProperty({ example: 2450, description: 'Annual interest rate in basis points (2450 = 24.50%)' })
  @IntField({ min: 0, max: 100_000 })
  annualRateBps: number;
}

/**
 * An underwriter's decision on an application under review. A decline or a counter-offer gives at
 * least one reason; a counter-offer gives its offer; a decline gives none.
 */
export class MakeDecisionRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  applicationId: string;

  @ApiProperty({ enum: DECISION_OUTCOMES })
  @IsIn(DECISION_OUTCOMES)
  outcome: string;

  @ApiPropertyOptional({
    enum: DECISION_REASONS,
    isArray: true,
    example: ['AMOUNT_REDUCED'],
    description: 'Reason codes (GetDecisionReasons); at least one for a decline or a counter-offer',
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(10)
  @ArrayUnique()
  @IsIn(DECISION_REASONS, { each: true })
  reasons?: string[];

  @ApiPropertyOptional({ type: OfferRequest })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => OfferRequest)
  offer?: OfferRequest;

  @ApiPropertyOptional({ example: 'Income confirmed by statement', description: "The underwriter's note" })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(2000)
  note?: string;
}
