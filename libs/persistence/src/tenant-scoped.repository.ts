import type {
  DataSource,
  DeepPartial,
  EntityTarget,
  FindOptionsOrder,
  FindOptionsWhere,
  ObjectLiteral,
  Repository,
  SelectQueryBuilder,
} from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { txManager, type Tx } from './transaction';

/** Conditions on a tenant-owned table, minus the tenant column: the tenant comes from its own argument. */
export type TenantWhere<E, K extends keyof E> = Omit<FindOptionsWhere<E>, K>;

export interface PageOptions<E> {
  order: FindOptionsOrder<E>;
  offset: number;
  limit: number;
}

/**
 * Base of every repository over a tenant-owned table. Each method takes the tenant as a required,
 * typed argument (the entity's branded tenant column type, e.g. `OrganizationId`), and the `where`
 * types leave the tenant column out, so a query that forgets or overrides its tenant does not
 * compile. Subclasses expose domain methods built on these; they never reach the table unscoped.
 *
 * Lending's shared-database mode will set PostgreSQL row-level security's tenant setting here, in the
 * one place every tenant query passes through.
 */
export abstract class TenantScopedRepository<E extends ObjectLiteral, K extends keyof E & string> {
  protected constructor(
    protected readonly ds: DataSource,
    private readonly entity: EntityTarget<E>,
    /** The entity property holding the tenant id. */
    protected readonly tenantKey: K,
  ) {}

  private table(tx?: Tx): Repository<E> {
    return (tx ? txManager(tx) : this.ds.manager).getRepository(this.entity);
  }

  private scoped(tenant: E[K], where: TenantWhere<E, K> = {} as TenantWhere<E, K>): FindOptionsWhere<E> {
    return { ...where, [this.tenantKey]: tenant } as FindOptionsWhere<E>;
  }

  protected find(
    tenant: E[K],
    where?: TenantWhere<E, K>,
    order?: FindOptionsOrder<E>,
    tx?: Tx,
  ): Promise<E[]> {
    return this.table(tx).find({ where: this.scoped(tenant, where), order });
  }

  protected findOne(tenant: E[K], where: TenantWhere<E, K>, tx?: Tx): Promise<E | null> {
    return this.table(tx).findOneBy(this.scoped(tenant, where));
  }

  protected exists(tenant: E[K], where: TenantWhere<E, K>, tx?: Tx): Promise<boolean> {
    return this.table(tx).existsBy(this.scoped(tenant, where));
  }

  /** How many of the tenant's rows match any of `where` (each alternative scoped to the tenant). */
  protected count(tenant: E[K], where: TenantWhere<E, K>[], tx?: Tx): Promise<number> {
    return this.table(tx).countBy(where.map((w) => this.scoped(tenant, w)));
  }

  /** One page and the total of matching rows. */
  protected page(
    tenant: E[K],
    where: TenantWhere<E, K>,
    page: PageOptions<E>,
    tx?: Tx,
  ): Promise<[E[], number]> {
    return this.table(tx).findAndCount({
      where: this.scoped(tenant, where),
      order: page.order,
      skip: page.offset,
      take: page.limit,
    });
  }

  protected async insert(tenant: E[K], rows: Omit<DeepPartial<E>, K>[], tx?: Tx): Promise<void> {
    if (!rows.length) return;
    await this.table(tx).insert(rows.map((r) => ({ ...r, [this.tenantKey]: tenant })) as never);
  }

  /** Inserts the rows that do not collide with an existing key; returns how many were inserted. */
  protected async insertIfAbsent(tenant: E[K], rows: Omit<DeepPartial<E>, K>[], tx?: Tx): Promise<number> {
    if (!rows.length) return 0;
    const res = await this.table(tx)
      .createQueryBuilder()
      .insert()
      .values(rows.map((r) => ({ ...r, [this.tenantKey]: tenant })) as never)
      .orIgnore()
      .execute();
    return (res.raw as unknown[]).length;
  }

  /** Inserts and returns the generated primary keys, in order. */
  protected async insertReturning(tenant: E[K], rows: Omit<DeepPartial<E>, K>[], tx?: Tx): Promise<E[]> {
    const res = await this.table(tx)
      .createQueryBuilder()
      .insert()
      .values(rows.map((r) => ({ ...r, [this.tenantKey]: tenant })) as never)
      .execute();
    return res.identifiers as E[];
  }

  /** Rows affected. `set` may use SQL expressions, e.g. `{ version: () => 'version + 1' }`. */
  protected async update(
    tenant: E[K],
    where: TenantWhere<E, K>,
    set: Omit<QueryDeepPartialEntity<E>, K>,
    tx?: Tx,
  ): Promise<number> {
    const res = await this.table(tx).update(this.scoped(tenant, where), set as QueryDeepPartialEntity<E>);
    return res.affected ?? 0;
  }

  /** Rows affected. */
  protected async delete(tenant: E[K], where: TenantWhere<E, K>, tx?: Tx): Promise<number> {
    const res = await this.table(tx).delete(this.scoped(tenant, where));
    return res.affected ?? 0;
  }

  /**
   * A query builder already restricted to the tenant (`<alias>.<tenant column> = :tenant`). Add
   * conditions with `andWhere` only: `where` would replace the tenant condition, `orWhere` widen it.
   */
  protected select(tenant: E[K], alias: string, tx?: Tx): SelectQueryBuilder<E> {
    const column = this.ds.getMetadata(this.entity).findColumnWithPropertyName(this.tenantKey);
    if (!column) throw new Error(`${String(this.tenantKey)} is not a column`);
    return this.table(tx)
      .createQueryBuilder(alias)
      .where(`${alias}.${column.databaseName} = :__tenant`, { __tenant: tenant });
  }
}
