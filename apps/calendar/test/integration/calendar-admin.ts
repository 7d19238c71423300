import type { INestApplicationContext } from '@nestjs/common';
import { TenancyAdminService } from '@platform/tenancy';
import { GrantsService } from '../../src/grants/grants.service';
import type { Permission } from '../../src/grants/permissions';
import { AccountsRepository } from '../../src/tenancy/accounts.unscoped.repository';
import { asAccountId } from '../../src/tenancy/tenant-ids';

/** Test set-up through the calendar's own services, the way the admin CLI does it. */
export const ensureAccount = (app: INestApplicationContext, id: string, name: string) =>
  app.get(AccountsRepository).ensure(asAccountId(id), name);

export const ensureProduct = (app: INestApplicationContext, id: string, name: string) =>
  app.get(TenancyAdminService).createOwner(id, name);

export const issueProductKey = (
  app: INestApplicationContext,
  productId: string,
  label: string,
  isDefault = false,
) => app.get(TenancyAdminService).issueKey(productId, label, { isDefault });

export const revokeProductKey = (app: INestApplicationContext, keyId: string) =>
  app.get(TenancyAdminService).revokeKey(keyId);

export const grantPermissions = (
  app: INestApplicationContext,
  accountId: string,
  productId: string,
  permissions: Permission[],
) => app.get(GrantsService).grant(asAccountId(accountId), productId, permissions, 'admin-cli');
