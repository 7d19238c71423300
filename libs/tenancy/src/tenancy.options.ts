import type { ApiKeyEntity, KeyOwnerEntity } from './api-key.entity';

/** How one service uses the shared keys: its token prefix, owner table, scopes and headers. */
export interface TenancyOptions {
  /** Token prefix (`cal`, `lnd`, `ver`): a key of one service is not a key of another. */
  keyPrefix: string;
  /** The table keys belong to, and what the admin CLI calls a row of it. */
  owner: new () => KeyOwnerEntity;
  ownerNoun: string;
  keyEntity: ApiKeyEntity;
  /** Every scope a key of this service may hold; a new key gets all of them unless narrowed. */
  scopes: readonly string[];
  /** The credential scheme routes name in `Authenticated(...)`. */
  scheme: string;
  /** Header carrying the token, e.g. `X-Api-Key`. */
  keyHeader: string;
  /** Header that must name the key's owner, e.g. `Organization-Id`. */
  ownerHeader: string;
  /** The app's typed config class (its `API_KEY_CACHE_*` settings bound the key cache). */
  config: new () => {
    API_KEY_CACHE_TTL_MS: number;
    API_KEY_CACHE_MAX_ENTRIES: number;
    API_KEYS_MAX_LIVE_PER_OWNER: number;
  };
}

export const TENANCY_OPTIONS = Symbol('TENANCY_OPTIONS');

/** How long a key lookup may be reused (ms; 0 disables) and how many keys are kept. */
export interface TenancySettings {
  ttlMs: number;
  maxEntries: number;
  /** Live keys an owner may hold (API_KEYS_MAX_LIVE_PER_OWNER). */
  maxLiveKeys: number;
}

export const TENANCY_SETTINGS = Symbol('TENANCY_SETTINGS');
