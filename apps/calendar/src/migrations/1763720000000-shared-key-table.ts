import type { MigrationInterface, QueryRunner } from 'typeorm';
import { adoptSharedKeyTableDdl } from '@platform/tenancy';

/** Product keys move to the shared `api_keys` table (libs/tenancy); every key keeps working. */
export class SharedKeyTable1763720000000 implements MigrationInterface {
  name = 'SharedKeyTable1763720000000';

  async up(q: QueryRunner): Promise<void> {
    for (const ddl of adoptSharedKeyTableDdl('calendar', {
      table: 'product_keys',
      ownerColumn: 'product_id',
      hasScopes: false,
      hasIsDefault: true,
    }))
      await q.query(ddl);
  }

  async down(): Promise<void> {
    throw new Error('SharedKeyTable1763720000000 is not reversible: restore from a backup instead');
  }
}
