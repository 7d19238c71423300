import { ApiProperty } from '@nestjs/swagger';
import { CASE_STATUSES } from '../../cases/case-statuses';
import { SummaryFlagResponse } from '../../summary/dto/summary.response';
import { REVIEW_DECISIONS, REVIEW_ORIGINS, REVIEW_TASK_STATUSES } from '../review-statuses';

/** A manual-review task. */
export class ReviewTaskResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) caseId: string;
  @ApiProperty({ enum: REVIEW_TASK_STATUSES, example: 'Open' }) status: string;
  @ApiProperty({
    enum: REVIEW_ORIGINS,
    description: 'rule: opened by a summary recommending review; manual: opened by hand',
  })
  origin: string;
  @ApiProperty({ example: 'Summary v1: DUPLICATE_DOCUMENT' }) reason: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The summary whose flags opened it (origin rule)',
  })
  summaryId: string | null;
  @ApiProperty({ type: [SummaryFlagResponse], description: 'The flags it cites (origin rule)' })
  flags: SummaryFlagResponse[];
  @ApiProperty({ type: String, nullable: true, example: 'reviewer@lender.example' }) assignee: string | null;
  @ApiProperty({ enum: REVIEW_DECISIONS, nullable: true, type: String }) decision: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) decidedAt: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-24T09:15:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-24T09:15:00.000Z' }) updatedAt: string;
}

export class ReviewTaskCommentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'The API key that wrote it (its key id)' }) author: string;
  @ApiProperty() text: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-24T09:15:00.000Z' }) createdAt: string;
}

export class ReviewTaskStatusChangeResponse {
  @ApiProperty({ enum: REVIEW_TASK_STATUSES, nullable: true, type: String, description: 'Null on creation' })
  fromStatus: string | null;
  @ApiProperty({ enum: REVIEW_TASK_STATUSES }) toStatus: string;
  @ApiProperty({ type: String, nullable: true }) assignee: string | null;
  @ApiProperty({ description: 'Who moved it: an API key id, or `rule` / `system`' }) actor: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-24T09:15:00.000Z' }) changedAt: string;
}

/** A task with its comments and status history (oldest first), and where its case is. */
export class ReviewTaskDetailResponse extends ReviewTaskResponse {
  @ApiProperty({ enum: CASE_STATUSES, description: "The case's current status" }) caseStatus: string;
  @ApiProperty({ type: [ReviewTaskCommentResponse] }) comments: ReviewTaskCommentResponse[];
  @ApiProperty({ type: [ReviewTaskStatusChangeResponse] }) history: ReviewTaskStatusChangeResponse[];
}
