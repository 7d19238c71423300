import type { MigrationInterface, QueryRunner } from 'typeorm';
import { adoptSharedKeyTableDdl } from '@platform/tenancy';

/** Partner keys move to the shared `api_keys` table (libs/tenancy); every key keeps working. */
export class SharedKeyTable1763720000000 implements MigrationInterface {
  name = 'SharedKeyTable1763720000000';

  async up(q: QueryRunner): Promise<void> {
    for (const ddl of adoptSharedKeyTableDdl('lending', {
      table: 'partner_keys',
      ownerColumn: 'organization_id',
      hasScopes: true,
      hasIsDefault: false,
    }))
      await q.query(ddl);
  }

  async down(): Promise<void> {
    throw new Error('SharedKeyTable1763720000000 is not reversible: restore from a backup instead');
  }
}
