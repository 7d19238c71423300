import { adoptSharedKeyTableMigration } from '@platform/tenancy';

/** Product keys move to the shared `api_keys` table (libs/tenancy); every key keeps working. */
export const SharedKeyTable1763720000000 = adoptSharedKeyTableMigration(
  'SharedKeyTable1763720000000',
  'calendar',
  {
    table: 'product_keys',
    ownerColumn: 'product_id',
    hasScopes: false,
    hasIsDefault: true,
  },
);
