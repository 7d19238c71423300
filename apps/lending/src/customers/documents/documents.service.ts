import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import { LendingConfig } from '../../config/lending.config';
import { TenantData } from '../../tenancy/tenant-data';
import { customerOrNotFound, lockCustomerForChange } from '../customer-lock';
import { DOCUMENT_STATUSES, DOCUMENT_TRANSITIONS, type DocumentType } from '../customer-statuses';
import { CustomerTexts } from '../customer-texts';
import { CustomersError, customersError } from '../customers.errors';
import { CustomersRepository } from '../customers.repository';
import type { ReviewDocumentRequest } from '../dto/document.request';
import type { DocumentResponse } from '../dto/document.response';
import type { StatusDictionaryResponse } from '../dto/customer.response';
import type { CustomerDocument } from './customer-document.entity';
import { CustomerDocumentsRepository } from './customer-documents.repository';
import { displayFileName } from './document-files';
import { DocumentStorage } from './document-storage';
import { UploadRefused, inspectRequestBody, type UploadProblem } from './upload-inspector';

const REFUSAL: Record<UploadProblem, CustomersError> = {
  too_large: CustomersError.DOCUMENT_TOO_LARGE,
  type: CustomersError.DOCUMENT_TYPE_NOT_ALLOWED,
  empty: CustomersError.DOCUMENT_EMPTY,
  aborted: CustomersError.DOCUMENT_UPLOAD_ABORTED,
};

export interface DocumentDownload {
  document: CustomerDocument;
  content: Readable;
}

/**
 * Customers' documents: the bytes stream from the request into DocumentStorage (counted, hashed and
 * sniffed on the way, no transaction held meanwhile), then the row is written with what was found.
 */
@Injectable()
export class DocumentsService {
  private readonly logger = new Logger('CustomerDocuments');

  constructor(
    private readonly data: TenantData,
    private readonly customers: CustomersRepository,
    private readonly documents: CustomerDocumentsRepository,
    private readonly storage: DocumentStorage,
    private readonly texts: CustomerTexts,
    private readonly config: LendingConfig,
  ) {}

  /** Refusals that need no byte of the body: a declared size over the limit. */
  checkDeclaredSize(contentLength: string | undefined): void {
    const max = this.config.LENDING_DOCUMENT_MAX_BYTES;
    if (contentLength !== undefined && /^\d+$/.test(contentLength) && Number(contentLength) > max)
      throw customersError(CustomersError.DOCUMENT_TOO_LARGE, { maxBytes: max }, { maxBytes: max });
  }

  async upload(
    organizationId: OrganizationId,
    lang: Language,
    upload: { customerId: string; type: DocumentType; fileName?: string },
    body: IncomingMessage,
  ): Promise<DocumentResponse> {
    await this.data.run(organizationId, (tx) =>
      lockCustomerForChange(this.customers, organizationId, upload.customerId, tx),
    );
    const id = randomUUID();
    const storageKey = `${organizationId}/${upload.customerId}/${id}`;
    const max = this.config.LENDING_DOCUMENT_MAX_BYTES;
    const inspected = inspectRequestBody(body, max);
    try {
      await this.storage.write(storageKey, inspected);
    } catch (err) {
      if (err instanceof UploadRefused)
        throw customersError(
          REFUSAL[err.problem],
          { maxBytes: max },
          err.problem === 'too_large' ? { maxBytes: max } : {},
        );
      throw err;
    }
    const contentType = inspected.contentType as NonNullable<typeof inspected.contentType>;
    try {
      const row = await this.data.run(organizationId, async (tx) => {
        // Checked again: the customer may have been closed while the bytes arrived.
        await lockCustomerForChange(this.customers, organizationId, upload.customerId, tx);
        return this.documents.add(
          organizationId,
          {
            id,
            customerId: upload.customerId,
            type: upload.type,
            fileName: displayFileName(upload.fileName, contentType),
            contentType,
            sizeBytes: inspected.size,
            sha256: inspected.sha256,
            storageKey,
          },
          tx,
        );
      });
      return this.view(row, lang);
    } catch (err) {
      await this.storage.remove(storageKey);
      throw err;
    }
  }

  async download(organizationId: OrganizationId, documentId: string): Promise<DocumentDownload> {
    const document = await this.data.run(organizationId, (tx) =>
      this.documents.byId(organizationId, documentId, tx),
    );
    if (!document) throw customersError(CustomersError.DOCUMENT_NOT_FOUND, { documentId });
    const content = await this.storage.read(document.storageKey);
    if (!content) {
      this.logger.error(`document ${document.id}: no bytes under storage key ${document.storageKey}`);
      throw customersError(CustomersError.DOCUMENT_FILE_MISSING);
    }
    return { document, content };
  }

  async page(
    organizationId: OrganizationId,
    lang: Language,
    customerId: string,
    offset: number,
    limit: number,
  ): Promise<ListValue<DocumentResponse>> {
    const [rows, total] = await this.data.run(organizationId, async (tx) => {
      await customerOrNotFound(this.customers, organizationId, customerId, tx);
      return this.documents.pageOfCustomer(organizationId, customerId, offset, limit, tx);
    });
    return { items: rows.map((r) => this.view(r, lang)), total };
  }

  async review(
    organizationId: OrganizationId,
    lang: Language,
    body: ReviewDocumentRequest,
  ): Promise<DocumentResponse> {
    return this.data.run(organizationId, async (tx) => {
      const found = await this.documents.byId(organizationId, body.documentId, tx);
      if (!found) throw customersError(CustomersError.DOCUMENT_NOT_FOUND, { documentId: body.documentId });
      await lockCustomerForChange(this.customers, organizationId, found.customerId, tx);
      // Read again under the customer's lock: a concurrent review may have moved it.
      const current = (await this.documents.byId(organizationId, found.id, tx)) as CustomerDocument;
      if (!DOCUMENT_TRANSITIONS[current.status].includes(body.status))
        throw customersError(
          CustomersError.DOCUMENT_TRANSITION,
          {
            from: this.texts.documentStatus(current.status, lang),
            to: this.texts.documentStatus(body.status, lang),
          },
          { from: current.status, to: body.status, allowed: [...DOCUMENT_TRANSITIONS[current.status]] },
        );
      await this.documents.review(
        organizationId,
        current.id,
        current.status,
        body.status,
        body.comment ?? null,
        tx,
      );
      return this.view((await this.documents.byId(organizationId, current.id, tx)) as CustomerDocument, lang);
    });
  }

  statuses(lang: Language): StatusDictionaryResponse[] {
    const named = (status: (typeof DOCUMENT_STATUSES)[number]) => ({
      status,
      statusName: this.texts.documentStatus(status, lang),
    });
    return DOCUMENT_STATUSES.map((s) => ({ ...named(s), next: DOCUMENT_TRANSITIONS[s].map(named) }));
  }

  view(d: CustomerDocument, lang: Language): DocumentResponse {
    return {
      id: d.id,
      customerId: d.customerId,
      type: d.type,
      status: d.status,
      statusName: this.texts.documentStatus(d.status, lang),
      fileName: d.fileName,
      contentType: d.contentType,
      sizeBytes: d.sizeBytes,
      sha256: d.sha256,
      reviewComment: d.reviewComment,
      reviewedAt: d.reviewedAt?.toISOString() ?? null,
      uploadedAt: d.uploadedAt.toISOString(),
    };
  }
}
