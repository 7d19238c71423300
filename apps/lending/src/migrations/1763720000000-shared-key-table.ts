import { adoptSharedKeyTableMigration } from '@platform/tenancy';

/** Partner keys move to the shared `api_keys` table (libs/tenancy); every key keeps working. */
export const SharedKeyTable1763720000000 = adoptSharedKeyTableMigration(
  'SharedKeyTable1763720000000',
  'lending',
  {
    table: 'partner_keys',
    ownerColumn: 'organization_id',
    hasScopes: true,
    hasIsDefault: false,
  },
);
