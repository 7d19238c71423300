import { issueApiKey } from '@platform/auth';
import type { DataSource } from 'typeorm';
import { Organization } from './organization.entity';
import { PartnerKey } from './partner-key.entity';
import { LENDING_SCOPES } from './scopes';

export async function ensureOrganization(ds: DataSource, id: string, name: string): Promise<Organization> {
  await ds.getRepository(Organization).upsert({ id, name }, ['id']);
  return ds.getRepository(Organization).findOneByOrFail({ id });
}

/** Issues a partner key; the token is returned once and never stored. */
export async function issuePartnerKey(
  ds: DataSource,
  organizationId: string,
  label: string,
  scopes: string[] = LENDING_SCOPES,
): Promise<{ token: string; keyId: string; scopes: string[] }> {
  const unknown = scopes.filter((s) => !LENDING_SCOPES.includes(s));
  if (unknown.length) throw new Error(`unknown scopes: ${unknown.join(', ')}`);
  const key = issueApiKey('lnd');
  await ds
    .getRepository(PartnerKey)
    .insert({ keyId: key.keyId, organizationId, hash: key.hash, label, scopes });
  return { token: key.token, keyId: key.keyId, scopes };
}

export async function revokePartnerKey(ds: DataSource, keyId: string): Promise<boolean> {
  const res = await ds.getRepository(PartnerKey).update({ keyId }, { revokedAt: new Date() });
  return (res.affected ?? 0) > 0;
}
