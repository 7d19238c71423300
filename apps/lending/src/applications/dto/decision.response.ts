import { ApiProperty } from '@nestjs/swagger';
import { CostOfCreditResponse } from '../../loans/dto/cost-of-credit.response';
import { DECIDERS, DECISION_OUTCOMES, DECISION_REASONS } from '../decisions/decision-reasons';

export class DecisionReasonResponse {
  @ApiProperty({ enum: DECISION_REASONS, example: 'AMOUNT_REDUCED' }) code: string;
  @ApiProperty({ example: 'The amount was reduced', description: "In the request's language" }) text: string;
}

export class OfferResponse {
  @ApiProperty({ example: 40000000, description: 'Minor units of `currency`' }) amount: number;
  @ApiProperty({ example: 'KZT' }) currency: string;
  @ApiProperty({ example: 36 }) termMonths: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 2450,
    description: 'Annual rate in basis points; null when the approval set none',
  })
  annualRateBps: number | null;
  @ApiProperty({
    type: CostOfCreditResponse,
    nullable: true,
    description:
      "The full cost of credit and the APR of the offer: the schedule the product's terms generate for the offered amount, term and rate if paid out today",
  })
  costOfCredit: CostOfCreditResponse | null;
}

/** An underwriting decision. */
export class DecisionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) applicationId: string;
  @ApiProperty({ enum: DECISION_OUTCOMES, example: 'counter_offer' }) outcome: string;
  @ApiProperty({ example: 'Counter-offer' }) outcomeName: string;
  @ApiProperty({ enum: DECIDERS, description: 'A person (a key) or the decision rules' }) decidedBy: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The deciding key, or the key whose RunChecks let the rules decide',
  })
  keyId: string | null;
  @ApiProperty({ type: [DecisionReasonResponse] }) reasons: DecisionReasonResponse[];
  @ApiProperty({ type: OfferResponse, nullable: true, description: 'Null on a decline' })
  offer: OfferResponse | null;
  @ApiProperty({ type: String, nullable: true }) note: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}
