import { ApiProperty } from '@nestjs/swagger';
import { CASE_STATUSES } from '../../cases/case-statuses';
import { CHECK_OUTCOMES, CHECK_STEPS } from '../../checks/check-steps';
import { AUTHENTICITY_STATUSES, FLAG_SEVERITIES, IDENTITY_STATUSES, RECOMMENDATIONS } from '../summary-types';
import { FLAG_RULES } from '../summary-rules';

const EVIDENCE = {
  type: 'object',
  additionalProperties: true,
  description: 'What the cited step read and compared (its stored evidence)',
} as const;

/** One comparison of the identity match. */
export class IdentityComparisonResponse {
  @ApiProperty({ enum: IDENTITY_STATUSES, example: 'match' }) status: string;
  @ApiProperty({
    description: "The deciding step's rule id, or `summary.identity.<step>-absent` when no step ran",
    example: 'name-match.exact',
  })
  rule: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The deciding check step' })
  stepId: string | null;
  @ApiProperty(EVIDENCE) evidence: Record<string, unknown>;
}

export class IdentityMatchResponse {
  @ApiProperty({
    enum: IDENTITY_STATUSES,
    description:
      'mismatch: a comparison differs; match: name and birth date agree; unknown: nothing compared; partial: otherwise',
    example: 'match',
  })
  status: string;
  @ApiProperty({ type: IdentityComparisonResponse }) name: IdentityComparisonResponse;
  @ApiProperty({ type: IdentityComparisonResponse }) birthDate: IdentityComparisonResponse;
}

export class AuthenticityCheckResponse {
  @ApiProperty({ enum: CHECK_STEPS, example: 'mrz-check-digits' }) step: string;
  @ApiProperty({ enum: CHECK_OUTCOMES, example: 'passed' }) outcome: string;
  @ApiProperty({ example: 'ICAO9303.check-digits' }) rule: string;
  @ApiProperty({ format: 'uuid' }) stepId: string;
}

export class AuthenticityResponse {
  @ApiProperty({
    enum: AUTHENTICITY_STATUSES,
    description:
      'failed: a file type, MRZ check digit or expiry step failed; passed: a document passed all three; inconclusive: otherwise',
    example: 'passed',
  })
  status: string;
  @ApiProperty({ type: [AuthenticityCheckResponse] }) checks: AuthenticityCheckResponse[];
}

export class SummaryFlagResponse {
  @ApiProperty({ enum: Object.keys(FLAG_RULES), example: 'DUPLICATE_DOCUMENT' }) code: string;
  @ApiProperty({ enum: FLAG_SEVERITIES, example: 'warning' }) severity: string;
  @ApiProperty({
    description:
      "The rule it cites: the check step's rule id when it rests on a step, else the summary rule (summary.*)",
    example: 'duplicate-document.same-file',
  })
  rule: string;
  @ApiProperty(EVIDENCE) evidence: Record<string, unknown>;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The check step it rests on; null for a flag about something missing',
  })
  stepId: string | null;
}

/** A stored summary of a case. */
export class SummaryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) caseId: string;
  @ApiProperty({ minimum: 1, description: 'Version of the summary within the case: 1, 2, ...', example: 1 })
  version: number;
  @ApiProperty({ format: 'date-time', example: '2026-11-24T09:15:00.000Z' }) generatedAt: string;
  @ApiProperty({ type: IdentityMatchResponse }) identityMatch: IdentityMatchResponse;
  @ApiProperty({ type: AuthenticityResponse }) authenticity: AuthenticityResponse;
  @ApiProperty({ type: [SummaryFlagResponse], description: 'Critical first, then warnings, then info' })
  flags: SummaryFlagResponse[];
  @ApiProperty({
    enum: RECOMMENDATIONS,
    description: 'decline: a critical flag; review: a warning flag; approve: otherwise',
    example: 'approve',
  })
  recommendation: string;
  @ApiProperty({ description: 'Version of the rules that produced it', example: 'summary-rules/1' })
  rulesVersion: string;
}

/** The answer to generation: the summary, and where the case went. */
export class GeneratedSummaryResponse extends SummaryResponse {
  @ApiProperty({ enum: CASE_STATUSES, description: 'The case status after generation', example: 'Approved' })
  caseStatus: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "The case's open review task after generation (opened now by rule, or already open)",
  })
  reviewTaskId: string | null;
}
