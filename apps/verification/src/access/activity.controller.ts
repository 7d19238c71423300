import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import { ApiVerificationCredentials } from './access-headers';
import { AccessError } from './access.errors';
import { ActivityService } from './activity.service';
import { ActivityResponse, ListActivityRequest } from './dto/activity.dto';

@ApiTags('Activity and usage')
@ApiVerificationCredentials()
@Controller('api/v1/activity')
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Get()
  @VerificationAccess.Authenticated('api-key', 'oauth')
  @VerificationAccess.RequireScopes('activity:read')
  @ApiOperation({
    operationId: 'listActivity',
    summary: "The organization's authenticated writes (who, what, when), newest first",
  })
  @ApiReasons(AccessError.ACTIVITY_RANGE_INVALID)
  @ApiEnvelope(ActivityResponse, { list: true })
  async list(@CurrentPrincipal() p: OrganizationPrincipal, @Query() q: ListActivityRequest) {
    const { items, total } = await this.activity.list(p.ownerId, q);
    return list(items, total);
  }
}
