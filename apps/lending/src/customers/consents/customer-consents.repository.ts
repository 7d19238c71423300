import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { ConsentType } from './consent-rules';
import { CustomerConsent } from './customer-consent.entity';

export type ConsentEvent = Omit<CustomerConsent, 'id' | 'organizationId' | 'recordedAt'>;

/** Customers' consent history: insert and read only (the table refuses the tenant role anything else). */
@Injectable()
export class CustomerConsentsRepository extends TenantScopedRepository<CustomerConsent, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CustomerConsent, 'organizationId');
  }

  /**
   * Appends an event stamped with the database clock at the write (clock_timestamp(), not the
   * transaction's start): the customer's row lock orders writers, and so does this time.
   */
  async append(organizationId: OrganizationId, event: ConsentEvent, tx: Tx): Promise<CustomerConsent> {
    const res = await this.asTenant(
      organizationId,
      (m) =>
        m
          .createQueryBuilder()
          .insert()
          .into(CustomerConsent)
          .values({ ...event, organizationId, recordedAt: () => 'clock_timestamp()' })
          .returning('id')
          .execute(),
      tx,
    );
    const id = (res.raw as { id: string }[])[0].id;
    return (await this.findOne(organizationId, { id }, tx)) as CustomerConsent;
  }

  /** The latest event of each type: the customer's consents as they stand. */
  current(organizationId: OrganizationId, customerId: string, tx: Tx): Promise<CustomerConsent[]> {
    return this.select(
      organizationId,
      'e',
      (q) =>
        q
          .andWhere('e.customer_id = :customerId', { customerId })
          .distinctOn(['e.type'])
          .orderBy('e.type', 'ASC')
          .addOrderBy('e.recorded_at', 'DESC')
          .addOrderBy('e.id', 'DESC')
          .getMany(),
      tx,
    );
  }

  /** The latest event of one type, or null when the customer never had one. */
  latest(
    organizationId: OrganizationId,
    customerId: string,
    type: ConsentType,
    tx: Tx,
  ): Promise<CustomerConsent | null> {
    return this.select(
      organizationId,
      'e',
      (q) =>
        q
          .andWhere('e.customer_id = :customerId AND e.type = :type', { customerId, type })
          .orderBy('e.recorded_at', 'DESC')
          .addOrderBy('e.id', 'DESC')
          .getOne(),
      tx,
    );
  }

  /** Newest first, optionally of one type, with the total. */
  history(
    organizationId: OrganizationId,
    customerId: string,
    type: ConsentType | undefined,
    offset: number,
    limit: number,
    tx: Tx,
  ): Promise<[CustomerConsent[], number]> {
    return this.page(
      organizationId,
      type ? { customerId, type } : { customerId },
      { order: { recordedAt: 'DESC', id: 'DESC' }, offset, limit },
      tx,
    );
  }
}
