import { Inject, Injectable } from '@nestjs/common';
import { headerValue, parseApiKey, verifyApiKey, type KeyPrincipal } from '@platform/auth';
import { CommonError, commonError } from '@platform/envelope';
import { ApiKeyLookupRepository } from './api-key-lookup.unscoped.repository';
import { KeyCache } from './key-cache';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options';

type Headers = Record<string, string | string[] | undefined>;

/**
 * The checks every API key passes, in every service: present, well-formed, of this service, known,
 * matching its hash (constant time), not revoked, not past a reissue's overlap, and owned by the
 * tenant the request names.
 */
@Injectable()
export class KeyAuthenticator {
  constructor(
    private readonly keys: ApiKeyLookupRepository,
    private readonly cache: KeyCache,
    @Inject(TENANCY_OPTIONS) private readonly options: TenancyOptions,
  ) {}

  private async lookup(keyId: string) {
    const cached = this.cache.get(keyId);
    if (cached !== undefined) return cached;
    const row = await this.keys.findByKeyId(keyId);
    this.cache.set(keyId, row);
    return row;
  }

  async authenticate(headers: Headers, now = new Date()): Promise<KeyPrincipal> {
    const { keyHeader, ownerHeader } = this.options;
    const token = headerValue(headers, keyHeader);
    if (!token) throw commonError(CommonError.API_KEY_MISSING, { header: keyHeader });
    const parsed = parseApiKey(token);
    const key = parsed && parsed.prefix === this.options.keyPrefix ? await this.lookup(parsed.keyId) : null;
    if (!parsed || !key || !verifyApiKey(parsed.token, key.hash))
      throw commonError(CommonError.API_KEY_INVALID);
    if (key.revokedAt) throw commonError(CommonError.API_KEY_REVOKED);
    if (key.expiresAt && key.expiresAt <= now) throw commonError(CommonError.API_KEY_EXPIRED);
    const owner = headerValue(headers, ownerHeader);
    if (!owner) throw commonError(CommonError.TENANT_HEADER_MISSING, { header: ownerHeader });
    if (owner !== key.ownerId) throw commonError(CommonError.TENANT_MISMATCH, { header: ownerHeader });
    return {
      kind: 'key',
      scheme: this.options.scheme,
      ownerId: key.ownerId,
      keyId: key.keyId,
      scopes: key.scopes,
      isDefault: key.isDefault,
    };
  }
}
