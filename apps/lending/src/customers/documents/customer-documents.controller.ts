import { LendingApi } from '../../common/lending-api';
import { pipeline } from 'node:stream/promises';
import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, RawResponse, list, AcceptsAnyBody } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingAccess, type PartnerPrincipal } from '../../tenancy/scopes';
import { CustomersError, customersError } from '../customers.errors';
import { CustomerPageQuery } from '../dto/customer.request';
import { StatusDictionaryResponse } from '../dto/customer.response';
import { DocumentIdQuery, ReviewDocumentRequest, UploadDocumentQuery } from '../dto/document.request';
import { DocumentResponse } from '../dto/document.response';
import { RequestLanguage } from '../../common/lending-api';
import { DOCUMENT_CONTENT_TYPES, contentDisposition } from './document-files';
import { DocumentsService } from './documents.service';

@LendingApi('Customers')
@Controller('Customers')
export class CustomerDocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Post('UploadDocument')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:write')
  @ApiOperation({
    summary: "Upload a customer's document: the file's bytes are the request body",
    description:
      'Send the file as it is (not JSON, not multipart), with any `Content-Type` but JSON. The type is recognised from the first bytes: PDF, JPEG or PNG. The name in `FileName` is only shown; the file is stored under a key the server chooses.',
  })
  @AcceptsAnyBody('application/octet-stream', ...DOCUMENT_CONTENT_TYPES)
  @ApiBody({ description: "The file's bytes", schema: { type: 'string', format: 'binary' } })
  @ApiReasons(
    CustomersError.NOT_FOUND,
    CustomersError.CLOSED,
    CustomersError.DOCUMENT_TOO_LARGE,
    CustomersError.DOCUMENT_EMPTY,
    CustomersError.DOCUMENT_TYPE_NOT_ALLOWED,
    CustomersError.DOCUMENT_UPLOAD_ABORTED,
  )
  @ApiEnvelope(DocumentResponse, { status: 201 })
  upload(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Query() q: UploadDocumentQuery,
    @Req() req: Request,
  ) {
    // A JSON body was parsed (and consumed) by the app's JSON parser: it is not a document.
    if (req.body !== undefined || req.readableEnded)
      throw customersError(CustomersError.DOCUMENT_TYPE_NOT_ALLOWED);
    this.documents.checkDeclaredSize(req.headers['content-length']);
    return this.documents.upload(
      p.ownerId,
      lang,
      { customerId: q.CustomerId, type: q.Type, fileName: q.FileName },
      req,
    );
  }

  @Get('DownloadDocument')
  @RawResponse()
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:read')
  @ApiOperation({
    summary: "Download a document's file, with its type and name",
    description:
      'The answer is the file itself (not the envelope); errors come in the envelope. `ETag` is the SHA-256 of the bytes.',
  })
  @ApiProduces(...DOCUMENT_CONTENT_TYPES)
  @ApiOkResponse({ description: 'The file', schema: { type: 'string', format: 'binary' } })
  @ApiReasons(CustomersError.DOCUMENT_NOT_FOUND, CustomersError.DOCUMENT_FILE_MISSING)
  async download(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: DocumentIdQuery,
    @Res() res: Response,
  ): Promise<void> {
    const { document, content } = await this.documents.download(p.ownerId, q.DocumentId);
    res.status(200);
    res.setHeader('Content-Type', document.contentType);
    res.setHeader('Content-Length', String(document.sizeBytes));
    res.setHeader('Content-Disposition', contentDisposition(document.fileName));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('ETag', `"${document.sha256}"`);
    await pipeline(content, res);
  }

  @Get('GetDocuments')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:read')
  @ApiOperation({ summary: "A customer's documents, newest first, paged with the total count" })
  @ApiReasons(CustomersError.NOT_FOUND)
  @ApiEnvelope(DocumentResponse, { list: true })
  async page(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Query() q: CustomerPageQuery,
  ) {
    const { items, total } = await this.documents.page(
      p.ownerId,
      lang,
      q.CustomerId,
      q.Offset ?? 0,
      q.Count ?? 20,
    );
    return list(items, total);
  }

  @Post('ReviewDocument')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:write')
  @ApiOperation({ summary: 'Verify or reject a document (see `GetDocumentStatuses`)' })
  @ApiReasons(CustomersError.DOCUMENT_NOT_FOUND, CustomersError.CLOSED, CustomersError.DOCUMENT_TRANSITION)
  @ApiEnvelope(DocumentResponse)
  review(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Body() body: ReviewDocumentRequest,
  ) {
    return this.documents.review(p.ownerId, lang, body);
  }

  @Get('GetDocumentStatuses')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:read')
  @ApiOperation({ summary: 'Document statuses with their names and allowed transitions' })
  @ApiEnvelope(StatusDictionaryResponse, { list: true })
  statuses(@RequestLanguage() lang: Language) {
    const items = this.documents.statuses(lang);
    return list(items, items.length);
  }
}
