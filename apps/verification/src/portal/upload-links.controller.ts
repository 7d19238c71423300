import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope } from '@platform/envelope';
import { CasesError } from '../cases/cases.errors';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import { UploadLinkRequest, UploadLinkResponse } from './dto/upload-link.request';
import { PortalError } from './portal.errors';
import { UploadLinksService } from './upload-links.service';
import { ApiVerificationCredentials } from '../access/access-headers';

@ApiTags('Verification cases')
@ApiVerificationCredentials()
@Controller('api/v1/verification-cases')
export class UploadLinksController {
  constructor(private readonly links: UploadLinksService) {}

  @Post(':id/upload-link')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:write')
  @ApiOperation({
    operationId: 'issueUploadLink',
    summary: 'Issue the borrower a fresh one-time link to the upload portal, with its QR code',
    description:
      'The link works once (Finish on the portal uses it up, with every other unused link of the case) and until `expiresAt`. It is shown only in this answer, so its QR code (SVG and PNG) comes with it. The case must be AwaitingApplicant or DocumentsReceived.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the case' })
  @ApiReasons(CasesError.NOT_FOUND, PortalError.UPLOAD_LINK_NOT_ALLOWED)
  @ApiEnvelope(UploadLinkResponse, { status: 201 })
  issue(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    // Typed as the class (not `| undefined`), so the validation pipe sees it; an empty body is undefined.
    @Body() body: UploadLinkRequest,
  ) {
    return this.links.issue(p.ownerId, id, body ?? {});
  }
}
