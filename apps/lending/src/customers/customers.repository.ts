import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, QueryFailedError, type DeepPartial } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { CustomerStatus } from './customer-statuses';
import { Customer, type CustomerKind } from './customer.entity';
import { CustomerIdentifier } from './identifiers/customer-identifier.entity';

export interface CustomerSearch {
  /** Matched in the name, trade name, email, phone, external id, or exactly as an identifier value. */
  text?: string;
  /** `text` normalised as identifiers are (identifier-rules.ts), for the exact identifier match. */
  identifier?: string;
  kind?: CustomerKind;
  status?: CustomerStatus;
}

export type CustomerFields = Omit<DeepPartial<Customer>, 'id' | 'organizationId' | 'version'>;

/** A write the unique external id refused. */
export const EXTERNAL_ID_TAKEN = 'external_id_taken' as const;

/** `%`, `_` and `\` match literally (backslash is PostgreSQL's default LIKE escape). */
const likeContains = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function isUniqueViolation(err: unknown, constraint: string): boolean {
  const driver = (err instanceof QueryFailedError ? err.driverError : undefined) as
    { code?: string; constraint?: string } | undefined;
  return driver?.code === '23505' && driver.constraint === constraint;
}

/** Customers, always inside a TenantData transaction. */
@Injectable()
export class CustomersRepository extends TenantScopedRepository<Customer, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, Customer, 'organizationId');
  }

  /** The customer, or null when it is not this organization's (another's id reads as unknown). */
  byId(organizationId: OrganizationId, id: string, tx: Tx): Promise<Customer | null> {
    return this.findOne(organizationId, { id }, tx);
  }

  /**
   * The customer, row-locked until the transaction ends: every change to a customer or to its
   * identifiers, documents, consents and bank accounts takes this lock first, so concurrent changes
   * of one customer happen one after the other.
   */
  lockById(organizationId: OrganizationId, id: string, tx: Tx): Promise<Customer | null> {
    return this.select(
      organizationId,
      'c',
      (q) => q.andWhere('c.id = :id', { id }).setLock('pessimistic_write').getOne(),
      tx,
    );
  }

  /**
   * The customer under a share lock until `tx` ends: business with the customer (an application move,
   * a contract, a disbursement) holds it while it checks the customer's standing, so a status change
   * (which takes `lockById`) waits for that business, and the business started after waits for it.
   */
  lockShared(organizationId: OrganizationId, id: string, tx: Tx): Promise<Customer | null> {
    return this.select(
      organizationId,
      'c',
      (q) => q.andWhere('c.id = :id', { id }).setLock('pessimistic_read').getOne(),
      tx,
    );
  }

  async create(
    organizationId: OrganizationId,
    fields: CustomerFields,
    tx: Tx,
  ): Promise<Customer | typeof EXTERNAL_ID_TAKEN> {
    try {
      const [row] = await this.insertReturning(organizationId, [fields], tx);
      return (await this.byId(organizationId, row.id, tx)) as Customer;
    } catch (err) {
      if (isUniqueViolation(err, 'customers_org_external_id_key')) return EXTERNAL_ID_TAKEN;
      throw err;
    }
  }

  /**
   * Applies `set` and bumps the version, when the customer is at `version` (any version when absent).
   * Null when no row matched: unknown, or changed since.
   */
  async change(
    organizationId: OrganizationId,
    id: string,
    version: number | undefined,
    set: QueryDeepPartialEntity<Customer>,
    tx: Tx,
  ): Promise<Customer | null | typeof EXTERNAL_ID_TAKEN> {
    try {
      const res = await this.asTenant(
        organizationId,
        (m) => {
          const qb = m
            .createQueryBuilder()
            .update(Customer)
            .set({ ...set, version: () => 'version + 1' })
            .where('organization_id = :organizationId AND id = :id', { organizationId, id });
          if (version !== undefined) qb.andWhere('version = :version', { version });
          return qb.returning('id').execute();
        },
        tx,
      );
      if (!(res.raw as unknown[]).length) return null;
      // Read back through the entity, so dates and JSON come as every other read gives them.
      return await this.byId(organizationId, id, tx);
    } catch (err) {
      if (isUniqueViolation(err, 'customers_org_external_id_key')) return EXTERNAL_ID_TAKEN;
      throw err;
    }
  }

  /** The id of the customer holding an external id, if any. */
  async holderOfExternalId(
    organizationId: OrganizationId,
    externalId: string,
    tx: Tx,
  ): Promise<string | null> {
    return (await this.findOne(organizationId, { externalId }, tx))?.id ?? null;
  }

  /** Newest first, the id breaking ties, with the total of all matches. */
  search(
    organizationId: OrganizationId,
    q: CustomerSearch,
    offset: number,
    limit: number,
    tx: Tx,
  ): Promise<[Customer[], number]> {
    return this.select(
      organizationId,
      'c',
      (qb) => {
        if (q.kind) qb.andWhere('c.kind = :kind', { kind: q.kind });
        if (q.status) qb.andWhere('c.status = :status', { status: q.status });
        const text = q.text?.trim();
        if (text) {
          const like = likeContains(text.toLowerCase());
          const phoneDigits = text.replace(/[\s()+-]/g, '');
          qb.andWhere(
            new Brackets((b) => {
              b.where('lower(c.display_name) LIKE :like', { like })
                .orWhere('lower(c.trade_name) LIKE :like')
                .orWhere('lower(c.email) LIKE :like')
                .orWhere('lower(c.external_id) LIKE :like');
              if (/^\d{3,}$/.test(phoneDigits))
                b.orWhere('c.phone LIKE :phone', { phone: likeContains(phoneDigits) });
              if (q.identifier) {
                const ids = qb
                  .subQuery()
                  .select('1')
                  .from(CustomerIdentifier, 'i')
                  .where('i.organization_id = c.organization_id')
                  .andWhere('i.customer_id = c.id')
                  .andWhere('i.value = :identifier')
                  .getQuery();
                b.orWhere(`EXISTS ${ids}`, { identifier: q.identifier });
              }
            }),
          );
        }
        return qb
          .orderBy('c.created_at', 'DESC')
          .addOrderBy('c.id', 'ASC')
          .offset(offset)
          .limit(limit)
          .getManyAndCount();
      },
      tx,
    );
  }
}
