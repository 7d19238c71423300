import { CommonError, commonError } from '@platform/envelope';
import { parseApiKey, verifyApiKey } from './api-key';

export interface StoredApiKey {
  hash: string;
  revokedAt: Date | null;
}

/**
 * The checks every API-key scheme shares: present, well-formed, known, matching its hash (constant
 * time), not revoked. Each app's guard then checks tenancy and scopes.
 */
export async function authenticateApiKey<K extends StoredApiKey>(
  token: string | undefined,
  headerName: string,
  findByKeyId: (keyId: string) => Promise<K | null>,
): Promise<K> {
  if (!token) throw commonError(CommonError.API_KEY_MISSING, { header: headerName });
  const parsed = parseApiKey(token);
  const key = parsed ? await findByKeyId(parsed.keyId) : null;
  if (!parsed || !key || !verifyApiKey(parsed.token, key.hash))
    throw commonError(CommonError.API_KEY_INVALID);
  if (key.revokedAt) throw commonError(CommonError.API_KEY_REVOKED);
  return key;
}

/** First value of a request header, trimmed; undefined when absent or blank. */
export function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const v = headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return s?.trim() || undefined;
}

export interface TenantKey extends StoredApiKey {
  keyId: string;
  scopes: string[];
}

/**
 * The header pair most APIs here use: a key header plus a tenant header that must name the key's own
 * tenant (lending: X-Api-Key + Organization-Id; verification: X-API-Key + Service-Organization-Id).
 */
export async function authenticateTenantKey<K extends TenantKey>(
  headers: Record<string, string | string[] | undefined>,
  opts: {
    keyHeader: string;
    tenantHeader: string;
    findByKeyId: (keyId: string) => Promise<K | null>;
    tenantOf: (key: K) => string;
  },
): Promise<{ key: K; tenantId: string }> {
  const key = await authenticateApiKey(
    headerValue(headers, opts.keyHeader),
    opts.keyHeader,
    opts.findByKeyId,
  );
  const tenantId = headerValue(headers, opts.tenantHeader);
  if (!tenantId) throw commonError(CommonError.TENANT_HEADER_MISSING, { header: opts.tenantHeader });
  if (tenantId !== opts.tenantOf(key))
    throw commonError(CommonError.TENANT_MISMATCH, { header: opts.tenantHeader });
  return { key, tenantId };
}
