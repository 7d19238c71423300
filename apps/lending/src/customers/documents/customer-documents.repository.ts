import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { DocumentStatus } from '../customer-statuses';
import { CustomerDocument } from './customer-document.entity';

export type DocumentFields = Omit<
  CustomerDocument,
  'organizationId' | 'uploadedAt' | 'status' | 'reviewComment' | 'reviewedAt'
>;

/** Customers' documents (the rows; the bytes are DocumentStorage's), inside a TenantData transaction. */
@Injectable()
export class CustomerDocumentsRepository extends TenantScopedRepository<CustomerDocument, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CustomerDocument, 'organizationId');
  }

  async add(organizationId: OrganizationId, fields: DocumentFields, tx: Tx): Promise<CustomerDocument> {
    await this.insert(organizationId, [fields], tx);
    return (await this.byId(organizationId, fields.id, tx)) as CustomerDocument;
  }

  byId(organizationId: OrganizationId, id: string, tx: Tx): Promise<CustomerDocument | null> {
    return this.findOne(organizationId, { id }, tx);
  }

  /** Newest first, the id breaking ties. */
  pageOfCustomer(
    organizationId: OrganizationId,
    customerId: string,
    offset: number,
    limit: number,
    tx: Tx,
  ): Promise<[CustomerDocument[], number]> {
    return this.page(
      organizationId,
      { customerId },
      { order: { uploadedAt: 'DESC', id: 'ASC' }, offset, limit },
      tx,
    );
  }

  /** Moves the document from `from` to `to` (compare-and-set); false when it was not at `from`. */
  async review(
    organizationId: OrganizationId,
    id: string,
    from: DocumentStatus,
    to: DocumentStatus,
    comment: string | null,
    tx: Tx,
  ): Promise<boolean> {
    const n = await this.update(
      organizationId,
      { id, status: from },
      { status: to, reviewComment: comment, reviewedAt: () => 'now()' },
      tx,
    );
    return n > 0;
  }
}
