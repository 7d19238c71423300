import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyColumns } from './api-key.entity';
import { TENANCY_SETTINGS, type TenancySettings } from './tenancy.options';
import { TtlCache } from './ttl-cache';

/**
 * Keys as the database last said, for a few seconds: authentication needs no round trip on every call.
 * Bounded in entries (least recently used evicted first) and in time (`API_KEY_CACHE_TTL_MS`, at most
 * 5 s): a key revoked by another replica or the admin CLI stops working within that bound; one revoked
 * or reissued through this process stops at once (`forget`). Unknown key ids are remembered too (as
 * null), so guessing floods no database.
 */
@Injectable()
export class KeyCache extends TtlCache<ApiKeyColumns | null> {
  constructor(@Inject(TENANCY_SETTINGS) settings: Pick<TenancySettings, 'ttlMs' | 'maxEntries'>) {
    super(settings);
  }
}
