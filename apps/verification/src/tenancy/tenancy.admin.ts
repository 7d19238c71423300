import { issueApiKey } from '@platform/auth';
import type { DataSource } from 'typeorm';
import { ApiKey } from './api-key.entity';
import { Organization } from './organization.entity';
import { VERIFICATION_SCOPES } from './scopes';

export async function ensureOrganization(ds: DataSource, id: string, name: string): Promise<Organization> {
  await ds.getRepository(Organization).upsert({ id, name }, ['id']);
  return ds.getRepository(Organization).findOneByOrFail({ id });
}

export async function issueVerificationKey(
  ds: DataSource,
  organizationId: string,
  label: string,
  scopes: string[] = VERIFICATION_SCOPES,
): Promise<{ token: string; keyId: string; scopes: string[] }> {
  const unknown = scopes.filter((s) => !VERIFICATION_SCOPES.includes(s));
  if (unknown.length) throw new Error(`unknown scopes: ${unknown.join(', ')}`);
  const key = issueApiKey('ver');
  await ds.getRepository(ApiKey).insert({ keyId: key.keyId, organizationId, hash: key.hash, label, scopes });
  return { token: key.token, keyId: key.keyId, scopes };
}

export async function revokeVerificationKey(ds: DataSource, keyId: string): Promise<boolean> {
  const res = await ds.getRepository(ApiKey).update({ keyId }, { revokedAt: new Date() });
  return (res.affected ?? 0) > 0;
}
