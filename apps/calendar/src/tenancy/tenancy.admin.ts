import { issueApiKey } from '@platform/auth';
import { IntegrationGrant } from '../grants/integration-grant.entity';
import { PERMISSIONS, type Permission } from '../grants/permissions';
import type { DataSource } from 'typeorm';
import { Account } from './account.entity';
import { Product } from './product.entity';
import { ProductKey } from './product-key.entity';

/** Admin operations behind the CLI and the development seed. */
export async function ensureAccount(ds: DataSource, id: string, name: string): Promise<Account> {
  await ds.getRepository(Account).upsert({ id, name }, ['id']);
  return ds.getRepository(Account).findOneByOrFail({ id });
}

export async function ensureProduct(ds: DataSource, id: string, name: string): Promise<Product> {
  await ds.getRepository(Product).upsert({ id, name }, ['id']);
  return ds.getRepository(Product).findOneByOrFail({ id });
}

/** Issues a key; the token is returned once and never stored. */
export async function issueProductKey(
  ds: DataSource,
  productId: string,
  label: string,
  isDefault = false,
): Promise<{ token: string; keyId: string }> {
  const key = issueApiKey('cal');
  await ds
    .getRepository(ProductKey)
    .insert({ keyId: key.keyId, productId, hash: key.hash, label, isDefault });
  return { token: key.token, keyId: key.keyId };
}

export async function revokeProductKey(ds: DataSource, keyId: string): Promise<boolean> {
  const res = await ds.getRepository(ProductKey).update({ keyId }, { revokedAt: () => 'now()' } as never);
  return (res.affected ?? 0) > 0;
}

/** What the account owner does through the API, for the CLI and the development seed. */
export async function grantPermissions(
  ds: DataSource,
  accountId: string,
  productId: string,
  permissions: Permission[],
  grantedBy = 'admin-cli',
): Promise<Permission[]> {
  const unknown = permissions.filter((p) => !PERMISSIONS.includes(p));
  if (unknown.length)
    throw new Error(`unknown permissions: ${unknown.join(', ')} (use ${PERMISSIONS.join(', ')})`);
  // Insert-if-absent: granting again keeps who granted it first and when.
  await ds
    .createQueryBuilder()
    .insert()
    .into(IntegrationGrant)
    .values(permissions.map((permission) => ({ accountId, productId, permission, grantedBy })))
    .orIgnore()
    .execute();
  return (await ds.getRepository(IntegrationGrant).findBy({ accountId, productId })).map((g) => g.permission);
}
