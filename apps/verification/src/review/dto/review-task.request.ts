import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID } from 'class-validator';
import { MaxChars, MinChars, QueryInt } from '@platform/envelope';
import {
  REVIEW_DECISIONS,
  REVIEW_TASK_STATUSES,
  type ReviewDecision,
  type ReviewTaskStatus,
} from '../review-statuses';

export class CreateReviewTaskRequest {
  @ApiProperty({
    description: 'Why a person should look at the case',
    example: 'The applicant called to say the passport was renewed last month.',
    maxLength: 2000,
  })
  @IsString()
  @MinChars(1)
  @MaxChars(2000)
  reason: string;
}

export class AssignReviewTaskRequest {
  @ApiProperty({
    description: 'Who works on the task: your own identifier of the reviewer (e.g. an email or a staff id)',
    example: 'reviewer@lender.example',
    maxLength: 200,
  })
  @IsString()
  @MinChars(1)
  @MaxChars(200)
  assignee: string;
}

export class CommentReviewTaskRequest {
  @ApiProperty({
    description: 'The comment',
    example: 'Called the applicant; documents confirmed.',
    maxLength: 4000,
  })
  @IsString()
  @MinChars(1)
  @MaxChars(4000)
  text: string;
}

export class DecideReviewTaskRequest {
  @ApiProperty({
    enum: REVIEW_DECISIONS,
    description: 'approve moves the case to Approved, decline to Declined',
  })
  @IsIn(REVIEW_DECISIONS)
  decision: ReviewDecision;

  @ApiPropertyOptional({ description: 'Why; stored as a comment of the task', maxLength: 4000 })
  @IsOptional()
  @IsString()
  @MinChars(1)
  @MaxChars(4000)
  comment?: string;
}

export class ListReviewTasksRequest {
  @ApiPropertyOptional({ enum: REVIEW_TASK_STATUSES, description: 'Only tasks in this status' })
  @IsOptional()
  @IsIn(REVIEW_TASK_STATUSES)
  status?: ReviewTaskStatus;

  @ApiPropertyOptional({ description: 'Only tasks assigned to this reviewer', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MinChars(1)
  @MaxChars(200)
  assignee?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only tasks of this case' })
  @IsOptional()
  @IsUUID()
  caseId?: string;

  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt()
  offset?: number;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 200, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 200 })
  limit?: number;
}
