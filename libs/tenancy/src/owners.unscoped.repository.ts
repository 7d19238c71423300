// Unscoped: the owners are the tenants themselves, addressed by their own id.
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { KeyOwnerEntity } from './api-key.entity';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options';

/** The owner table (organizations, products): the tenants themselves, so not tenant-scoped. */
@Injectable()
export class OwnersRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(TENANCY_OPTIONS) private readonly options: TenancyOptions,
  ) {}

  /** Creates the owner or renames it; returns the row. */
  async ensure(id: string, name: string): Promise<KeyOwnerEntity> {
    const table = this.ds.getRepository(this.options.owner);
    await table.upsert({ id, name }, ['id']);
    return table.findOneByOrFail({ id });
  }

  exists(id: string): Promise<boolean> {
    return this.ds.getRepository(this.options.owner).existsBy({ id });
  }

  /** Every owner's id (for per-tenant maintenance such as a retention purge). */
  async ids(): Promise<string[]> {
    const rows = await this.ds
      .getRepository(this.options.owner)
      .find({ select: { id: true }, order: { id: 'ASC' } });
    return rows.map((r) => r.id);
  }
}
