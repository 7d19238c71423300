import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope } from '@platform/envelope';
import { PublicStatusError } from '../status/public-status.errors';
import { ManageHeaders } from '../tenancy/manage-headers';
import { PublicStatusAccess as Access, type StatusPrincipal } from '../tenancy/scopes';
import {
  CreateIncidentRequest,
  IncidentPath,
  IncidentUpdateRequest,
  ResolveIncidentRequest,
} from './dto/incident.request';
import { IncidentResponse } from './dto/incident.response';
import { IncidentsService } from './incidents.service';

@ApiTags('PublicStatus management')
@ManageHeaders()
@Controller('PublicStatus/manage/incidents')
export class IncidentsController {
  constructor(private readonly incidents: IncidentsService) {}

  @Get()
  @Access.Authenticated('status-key')
  @Access.RequireScopes('status:read')
  @ApiOperation({ operationId: 'listIncidents', summary: 'The 50 most recent incidents with their updates' })
  @ApiEnvelope(IncidentResponse, { list: true })
  async list(@CurrentPrincipal() p: StatusPrincipal) {
    const items = await this.incidents.list(p.ownerId);
    return { items, total: items.length };
  }

  @Post()
  @Access.Authenticated('status-key')
  @Access.RequireScopes('incidents:write')
  @ApiOperation({
    operationId: 'createIncident',
    summary: 'Open an incident, optionally setting the state of the affected resources',
  })
  @ApiReasons(PublicStatusError.PRODUCT_NOT_FOUND, PublicStatusError.RESOURCE_NOT_FOUND)
  @ApiEnvelope(IncidentResponse, { status: 201 })
  create(@CurrentPrincipal() p: StatusPrincipal, @Body() body: CreateIncidentRequest) {
    return this.incidents.create(p.ownerId, body);
  }

  @Post(':incident/updates')
  @Access.Authenticated('status-key')
  @Access.RequireScopes('incidents:write')
  @ApiOperation({ operationId: 'addIncidentUpdate', summary: 'Post an update to an open incident' })
  @ApiReasons(PublicStatusError.INCIDENT_NOT_FOUND, PublicStatusError.INCIDENT_RESOLVED)
  @ApiEnvelope(IncidentResponse, { status: 201 })
  update(
    @CurrentPrincipal() p: StatusPrincipal,
    @Param() path: IncidentPath,
    @Body() body: IncidentUpdateRequest,
  ) {
    return this.incidents.postUpdate(p.ownerId, path.incident, body);
  }

  @Post(':incident/resolve')
  @Access.Authenticated('status-key')
  @Access.RequireScopes('incidents:write')
  @ApiOperation({
    operationId: 'resolveIncident',
    summary: 'Resolve an incident; resources it set return to operational',
  })
  @ApiReasons(PublicStatusError.INCIDENT_NOT_FOUND, PublicStatusError.INCIDENT_RESOLVED)
  @ApiEnvelope(IncidentResponse, { status: 201 })
  resolve(
    @CurrentPrincipal() p: StatusPrincipal,
    @Param() path: IncidentPath,
    @Body() body: ResolveIncidentRequest,
  ) {
    return this.incidents.resolve(p.ownerId, path.incident, body);
  }
}
