import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyColumns } from './api-key.entity';
import { TENANCY_SETTINGS, type TenancySettings } from './tenancy.options';

interface Entry {
  row: ApiKeyColumns | null;
  until: number;
}

/**
 * Keys as the database last said, for a few seconds: authentication needs no round trip on every call.
 * Bounded in entries (least recently used evicted first) and in time (`API_KEY_CACHE_TTL_MS`, at most
 * 5 s): a key revoked by another replica or the admin CLI stops working within that bound; one revoked
 * or reissued through this process stops at once (`forget`). Unknown key ids are remembered too, so
 * guessing floods no database.
 */
@Injectable()
export class KeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(@Inject(TENANCY_SETTINGS) private readonly settings: TenancySettings) {}

  /** The cached row (null: known not to exist), or undefined when the database must be asked. */
  get(keyId: string, now = Date.now()): ApiKeyColumns | null | undefined {
    const entry = this.entries.get(keyId);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(keyId);
      return undefined;
    }
    // Re-inserted: Map order is the eviction order.
    this.entries.delete(keyId);
    this.entries.set(keyId, entry);
    return entry.row;
  }

  set(keyId: string, row: ApiKeyColumns | null, now = Date.now()): void {
    if (this.settings.ttlMs <= 0) return;
    this.entries.delete(keyId);
    this.entries.set(keyId, { row, until: now + this.settings.ttlMs });
    while (this.entries.size > this.settings.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  forget(keyId: string): void {
    this.entries.delete(keyId);
  }

  get size(): number {
    return this.entries.size;
  }
}
