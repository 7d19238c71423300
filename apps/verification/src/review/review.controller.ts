import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import { CasesError } from '../cases/cases.errors';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import {
  AssignReviewTaskRequest,
  CommentReviewTaskRequest,
  CreateReviewTaskRequest,
  DecideReviewTaskRequest,
  ListReviewTasksRequest,
} from './dto/review-task.request';
import {
  ReviewTaskCommentResponse,
  ReviewTaskDetailResponse,
  ReviewTaskResponse,
} from './dto/review-task.response';
import { ReviewError } from './review.errors';
import { ReviewService } from './review.service';
import { ApiVerificationCredentials } from '../access/access-headers';

const CASE_ID = { name: 'id', format: 'uuid', description: 'Identifier of the case' };
const TASK_ID = { name: 'taskId', format: 'uuid', description: 'Identifier of the review task' };

@ApiTags('Manual review')
@ApiVerificationCredentials()
@Controller('api/v1')
export class ReviewController {
  constructor(private readonly review: ReviewService) {}

  @Post('verification-cases/:id/review-tasks')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('manual-review:write')
  @ApiOperation({
    operationId: 'createReviewTask',
    summary: 'Open a manual-review task by hand; the case moves to ManualReview',
  })
  @ApiParam(CASE_ID)
  @ApiReasons(
    CasesError.NOT_FOUND,
    ReviewError.CASE_FINAL,
    ReviewError.CASE_AWAITING_APPLICANT,
    ReviewError.TASK_ALREADY_OPEN,
  )
  @ApiEnvelope(ReviewTaskDetailResponse, { status: 201 })
  create(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Body() body: CreateReviewTaskRequest,
  ) {
    return this.review.create(p.ownerId, id, body, p.keyId);
  }

  @Get('review-tasks')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('manual-review:read')
  @ApiOperation({
    operationId: 'listReviewTasks',
    summary: 'Find review tasks by status, assignee or case, newest first, with the total count',
  })
  @ApiEnvelope(ReviewTaskResponse, { list: true })
  async list(@CurrentPrincipal() p: OrganizationPrincipal, @Query() q: ListReviewTasksRequest) {
    const { items, total } = await this.review.list(p.ownerId, q);
    return list(items, total);
  }

  @Get('review-tasks/:taskId')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('manual-review:read')
  @ApiOperation({
    operationId: 'getReviewTask',
    summary: 'One review task with its comments and status history',
  })
  @ApiParam(TASK_ID)
  @ApiReasons(ReviewError.TASK_NOT_FOUND)
  @ApiEnvelope(ReviewTaskDetailResponse)
  get(@CurrentPrincipal() p: OrganizationPrincipal, @Param('taskId') taskId: string) {
    return this.review.get(p.ownerId, taskId);
  }

  @Post('review-tasks/:taskId/assign')
  @HttpCode(200)
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('manual-review:write')
  @ApiOperation({
    operationId: 'assignReviewTask',
    summary: 'Assign the task to a reviewer (status InProgress), or hand it to another',
  })
  @ApiParam(TASK_ID)
  @ApiReasons(ReviewError.TASK_NOT_FOUND, ReviewError.TASK_CLOSED, ReviewError.CASE_FINAL)
  @ApiEnvelope(ReviewTaskDetailResponse)
  assign(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('taskId') taskId: string,
    @Body() body: AssignReviewTaskRequest,
  ) {
    return this.review.assign(p.ownerId, taskId, body, p.keyId);
  }

  @Post('review-tasks/:taskId/comments')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('manual-review:write')
  @ApiOperation({ operationId: 'commentReviewTask', summary: 'Add a comment to an open task' })
  @ApiParam(TASK_ID)
  @ApiReasons(ReviewError.TASK_NOT_FOUND, ReviewError.TASK_CLOSED, ReviewError.CASE_FINAL)
  @ApiEnvelope(ReviewTaskCommentResponse, { status: 201 })
  comment(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('taskId') taskId: string,
    @Body() body: CommentReviewTaskRequest,
  ) {
    return this.review.comment(p.ownerId, taskId, body, p.keyId);
  }

  @Post('review-tasks/:taskId/decide')
  @HttpCode(200)
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('manual-review:write')
  @ApiOperation({
    operationId: 'decideReviewTask',
    summary: 'Approve or decline: the task closes and the case moves to Approved or Declined',
  })
  @ApiParam(TASK_ID)
  @ApiReasons(ReviewError.TASK_NOT_FOUND, ReviewError.TASK_CLOSED, ReviewError.CASE_FINAL)
  @ApiEnvelope(ReviewTaskDetailResponse)
  decide(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('taskId') taskId: string,
    @Body() body: DecideReviewTaskRequest,
  ) {
    return this.review.decide(p.ownerId, taskId, body, p.keyId);
  }
}
