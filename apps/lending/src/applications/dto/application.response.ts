import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { APPLICATION_CHANNELS } from '../application-channels';
import { APPLICATION_ACTIONS, APPLICATION_STATUSES } from '../workflow/application-workflow';
import { CheckResponse } from './check.response';
import { DecisionResponse } from './decision.response';

export class ProductResponse {
  @ApiProperty({ example: 'CONSUMER_CASH' }) productCode: string;
  @ApiProperty({ example: 50000000, description: 'Minor units of `currency`' }) amount: number;
  @ApiProperty({ example: 'KZT' }) currency: string;
  @ApiProperty({ example: 24 }) termMonths: number;
  @ApiProperty({ type: String, nullable: true, example: 'Home renovation' }) purpose: string | null;
}

export class ApplicantResponse {
  @ApiProperty({
    example: '********0500',
    description: 'The national id, all but its last four characters masked',
  })
  nationalIdMasked: string;
  @ApiProperty({ example: 60000000, description: 'Minor units' }) monthlyIncome: number;
  @ApiProperty({ example: 15000000, description: 'Minor units' }) monthlyExpenses: number;
}

/** An application as the list returns it. */
export class ApplicationResponse {
  @ApiProperty({ format: 'uuid', example: '3f0c9a52-8d1e-4c5b-9a4e-2b7d1c6e5f10' }) id: string;
  @ApiProperty({
    enum: APPLICATION_STATUSES,
    description: 'Where the application is in its workflow',
    example: 'draft',
  })
  status: string;
  @ApiProperty({ description: "The status's name in the request's language", example: 'Draft' })
  statusName: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Null only on rows from before issue 12',
  })
  customerId: string | null;
  @ApiProperty({ type: ProductResponse, nullable: true }) product: ProductResponse | null;
  @ApiProperty({ type: ApplicantResponse, nullable: true }) applicant: ApplicantResponse | null;
  @ApiProperty({ enum: APPLICATION_CHANNELS, nullable: true, type: String }) channel: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-23T09:15:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-23T09:20:00.000Z' }) updatedAt: string;
}

/** A move the application can take from its current status. */
export class AllowedMoveResponse {
  @ApiProperty({ enum: APPLICATION_ACTIONS, example: 'SubmitApplication' }) action: string;
  @ApiProperty({ enum: APPLICATION_STATUSES, example: 'submitted' }) to: string;
  @ApiProperty({ example: 'Submitted' }) toName: string;
  @ApiProperty({ enum: ['key', 'rules'], description: 'Who takes it: a caller, or the decision rules' })
  by: string;
}

/** One application with its checks, its latest decision and the moves open to it. */
export class ApplicationDetailsResponse extends ApplicationResponse {
  @ApiProperty({ type: [CheckResponse], description: 'The check steps (empty before RunChecks)' })
  checks: CheckResponse[];
  @ApiPropertyOptional({ type: DecisionResponse, nullable: true, description: 'The latest decision, if any' })
  decision: DecisionResponse | null;
  @ApiProperty({ type: [AllowedMoveResponse] }) allowedMoves: AllowedMoveResponse[];
}
