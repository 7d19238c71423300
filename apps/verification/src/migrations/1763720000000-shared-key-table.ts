import { adoptSharedKeyTableMigration } from '@platform/tenancy';

/** API keys take the shared `api_keys` shape (libs/tenancy); every key keeps working. */
export const SharedKeyTable1763720000000 = adoptSharedKeyTableMigration(
  'SharedKeyTable1763720000000',
  'verification',
  {
    table: 'api_keys',
    ownerColumn: 'organization_id',
    hasScopes: true,
    hasIsDefault: false,
  },
);
