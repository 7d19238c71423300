import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope } from '@platform/envelope';
import { PublicStatusError } from '../status/public-status.errors';
import { ManageHeaders } from '../tenancy/manage-headers';
import { PublicStatusAccess as Access, type StatusPrincipal } from '../tenancy/scopes';
import { MaintenancePath, ScheduleMaintenanceRequest } from './dto/maintenance.request';
import { MaintenanceResponse } from './dto/maintenance.response';
import { MaintenanceService } from './maintenance.service';

@ApiTags('PublicStatus management')
@ManageHeaders()
@Controller('PublicStatus/manage/maintenances')
export class MaintenanceController {
  constructor(private readonly maintenance: MaintenanceService) {}

  @Get()
  @Access.Authenticated('status-key')
  @Access.RequireScopes('status:read')
  @ApiOperation({ operationId: 'listMaintenances', summary: 'The 50 most recent maintenances' })
  @ApiEnvelope(MaintenanceResponse, { list: true })
  async list(@CurrentPrincipal() p: StatusPrincipal) {
    const items = await this.maintenance.list(p.ownerId);
    return { items, total: items.length };
  }

  @Post()
  @Access.Authenticated('status-key')
  @Access.RequireScopes('maintenance:write')
  @ApiOperation({ operationId: 'scheduleMaintenance', summary: 'Schedule a maintenance window' })
  @ApiReasons(
    PublicStatusError.MAINTENANCE_WINDOW_INVALID,
    PublicStatusError.PRODUCT_NOT_FOUND,
    PublicStatusError.RESOURCE_NOT_FOUND,
  )
  @ApiEnvelope(MaintenanceResponse, { status: 201 })
  schedule(@CurrentPrincipal() p: StatusPrincipal, @Body() body: ScheduleMaintenanceRequest) {
    return this.maintenance.schedule(p.ownerId, body);
  }

  @Post(':maintenance/start')
  @Access.Authenticated('status-key')
  @Access.RequireScopes('maintenance:write')
  @ApiOperation({
    operationId: 'startMaintenance',
    summary: 'Start a scheduled maintenance: its resources go under maintenance',
  })
  @ApiReasons(PublicStatusError.MAINTENANCE_NOT_FOUND, PublicStatusError.MAINTENANCE_TRANSITION)
  @ApiEnvelope(MaintenanceResponse, { status: 201 })
  start(@CurrentPrincipal() p: StatusPrincipal, @Param() path: MaintenancePath) {
    return this.maintenance.start(p.ownerId, path.maintenance);
  }

  @Post(':maintenance/complete')
  @Access.Authenticated('status-key')
  @Access.RequireScopes('maintenance:write')
  @ApiOperation({
    operationId: 'completeMaintenance',
    summary: 'Complete a maintenance: its resources return to operational',
  })
  @ApiReasons(PublicStatusError.MAINTENANCE_NOT_FOUND, PublicStatusError.MAINTENANCE_TRANSITION)
  @ApiEnvelope(MaintenanceResponse, { status: 201 })
  complete(@CurrentPrincipal() p: StatusPrincipal, @Param() path: MaintenancePath) {
    return this.maintenance.complete(p.ownerId, path.maintenance);
  }
}
