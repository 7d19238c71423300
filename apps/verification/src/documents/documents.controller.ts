import { Body, Controller, Get, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal, Public } from '@platform/auth';
import { ApiEnvelope, RawResponse, list, AcceptsAnyBody } from '@platform/envelope';
import { CasesError } from '../cases/cases.errors';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import { DOCUMENT_CONTENT_TYPES } from './document-statuses';
import { DocumentsError } from './documents.errors';
import { DocumentsService } from './documents.service';
import { DocumentDetailResponse, DocumentResponse, SignedUploadUrlResponse } from './dto/document.response';
import { SignedUploadUrlRequest } from './dto/signed-upload-url.request';
import { readUploadBody } from './read-upload-body';
import { ApiVerificationCredentials } from '../access/access-headers';

const CASE_ID = { name: 'id', format: 'uuid', description: 'Identifier of the case' };
const DOCUMENT_ID = { name: 'documentId', format: 'uuid', description: 'Identifier of the document' };

/** `attachment; filename="passport.jpg"; filename*=UTF-8''...`, safe for any stored name. */
function attachment(fileName: string | null, fallback: string): string {
  const name = fileName ?? fallback;
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A case's documents (docs/verification/documents.md), with an organization's API key or token. */
@ApiTags('Documents')
@ApiVerificationCredentials()
@Controller('api/v1/verification-cases/:id/documents')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Post('signed-upload-url')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('documents:write')
  @ApiOperation({
    operationId: 'signDocumentUpload',
    summary: 'Get a signed URL to upload one document of the case (PUT, single use, limited lifetime)',
    description:
      "Creates the document in status AwaitingUpload. PUT the file's bytes to `uploadUrl` with the `Content-Type` of `headers`, without an API key, before `expiresAt`. The storage key is chosen by the server. Unused URLs expire (the document becomes Expired).",
  })
  @ApiParam(CASE_ID)
  @ApiReasons(
    CasesError.NOT_FOUND,
    DocumentsError.CASE_NOT_ACCEPTING,
    DocumentsError.CONTENT_TYPE_NOT_ALLOWED,
    DocumentsError.TOO_LARGE,
    DocumentsError.FILE_NAME_INVALID,
    DocumentsError.UPLOADS_UNAVAILABLE,
  )
  @ApiEnvelope(SignedUploadUrlResponse, { status: 201 })
  signedUploadUrl(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Body() body: SignedUploadUrlRequest,
  ) {
    return this.documents.issueUploadUrl(p.ownerId, id, body);
  }

  @Get()
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('documents:read')
  @ApiOperation({ operationId: 'listDocuments', summary: "The case's documents, oldest first" })
  @ApiParam(CASE_ID)
  @ApiReasons(CasesError.NOT_FOUND)
  @ApiEnvelope(DocumentResponse, { list: true })
  async list(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    const { items, total } = await this.documents.list(p.ownerId, id);
    return list(items, total);
  }

  @Get(':documentId')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('documents:read')
  @ApiOperation({ operationId: 'getDocument', summary: 'One document: its metadata and status history' })
  @ApiParam(CASE_ID)
  @ApiParam(DOCUMENT_ID)
  @ApiReasons(CasesError.NOT_FOUND, DocumentsError.NOT_FOUND)
  @ApiEnvelope(DocumentDetailResponse)
  get(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Param('documentId') documentId: string,
  ) {
    return this.documents.get(p.ownerId, id, documentId);
  }

  @Get(':documentId/content')
  @RawResponse()
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('documents:read')
  @ApiOperation({
    operationId: 'getDocumentContent',
    summary: "The document's bytes, as a download",
    description:
      'Content-Type is the type found in the bytes by the checks, else the declared one; always `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`. `X-Content-SHA256` carries the hex SHA-256.',
  })
  @ApiParam(CASE_ID)
  @ApiParam(DOCUMENT_ID)
  @ApiProduces(...DOCUMENT_CONTENT_TYPES)
  @ApiOkResponse({ description: 'The file', schema: { type: 'string', format: 'binary' } })
  @ApiReasons(
    CasesError.NOT_FOUND,
    DocumentsError.NOT_FOUND,
    DocumentsError.CONTENT_NOT_AVAILABLE,
    DocumentsError.STORAGE_UNAVAILABLE,
  )
  async content(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Param('documentId') documentId: string,
    @Res() res: Response,
  ): Promise<void> {
    const { doc, body } = await this.documents.content(p.ownerId, id, documentId);
    res.setHeader('Content-Type', doc.detectedType ?? doc.declaredContentType);
    res.setHeader('Content-Length', String(body.length));
    res.setHeader('Content-Disposition', attachment(doc.fileName, doc.id));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, no-store');
    if (doc.sha256) res.setHeader('X-Content-SHA256', doc.sha256);
    res.status(200).end(body);
  }
}

/**
 * The target of signed upload URLs: anonymous, the signature in the query is the credential
 * (docs/verification/documents.md, "Signed upload URL").
 */
@ApiTags('Documents')
@Controller('api/v1/document-uploads')
export class DocumentUploadsController {
  constructor(private readonly documents: DocumentsService) {}

  @Put(':documentId')
  @Public()
  @ApiOperation({
    operationId: 'uploadDocument',
    summary: "Upload a document's bytes to its signed URL (from POST .../documents/signed-upload-url)",
    description:
      'The body is the file itself, with exactly the signed `Content-Type` and no `Content-Encoding`. Works once: the document becomes Uploaded (and the case DocumentsReceived); a second PUT answers 409.',
  })
  @ApiParam(DOCUMENT_ID)
  @ApiQuery({ name: 'expires', required: true, description: 'Unix seconds, as issued' })
  @ApiQuery({ name: 'signature', required: true, description: 'Hex HMAC-SHA256, as issued' })
  @ApiHeader({ name: 'Accept-Language', required: false, description: 'Language of the `error` text' })
  @AcceptsAnyBody(...DOCUMENT_CONTENT_TYPES)
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiReasons(
    DocumentsError.SIGNATURE_INVALID,
    DocumentsError.URL_EXPIRED,
    DocumentsError.CONTENT_TYPE_MISMATCH,
    DocumentsError.CONTENT_ENCODING_NOT_ALLOWED,
    DocumentsError.ALREADY_UPLOADED,
    DocumentsError.TOO_LARGE,
    DocumentsError.EMPTY,
    DocumentsError.UPLOAD_ABORTED,
    DocumentsError.CASE_NOT_ACCEPTING,
    DocumentsError.UPLOADS_UNAVAILABLE,
    DocumentsError.STORAGE_UNAVAILABLE,
  )
  @ApiEnvelope(DocumentResponse)
  async upload(
    @Param('documentId') documentId: string,
    @Query('expires') expires: unknown,
    @Query('signature') signature: unknown,
    @Req() req: Request,
  ) {
    const open = await this.documents.openUpload(
      documentId,
      { expires, signature },
      {
        contentType: req.headers['content-type'],
        contentEncoding: req.headers['content-encoding'],
        contentLength: req.headers['content-length'],
      },
    );
    return this.documents.completeUpload(open, await readUploadBody(req, open.doc.maxBytes));
  }
}
