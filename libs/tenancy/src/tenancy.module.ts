import { Module, type DynamicModule } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyLookupRepository } from './api-key-lookup.unscoped.repository';
import { ApiKeysRepository } from './api-keys.repository';
import { KeyAuthenticator } from './key-authenticator.service';
import { KeyCache } from './key-cache';
import { OwnersRepository } from './owners.unscoped.repository';
import { TenancyAdminService } from './tenancy-admin.service';
import {
  TENANCY_OPTIONS,
  TENANCY_SETTINGS,
  type TenancyOptions,
  type TenancySettings,
} from './tenancy.options';

/**
 * Keys and tenants for one service. Import it once in the app module (and in the admin CLI); use
 * `ApiKeyGuard` as the global guard, or `KeyAuthenticator` inside a guard of the service's own.
 */
@Module({})
export class TenancyModule {
  static forService(options: TenancyOptions): DynamicModule {
    return {
      module: TenancyModule,
      providers: [
        { provide: TENANCY_OPTIONS, useValue: options },
        {
          provide: TENANCY_SETTINGS,
          inject: [options.config],
          useFactory: (c: InstanceType<TenancyOptions['config']>): TenancySettings => ({
            ttlMs: c.API_KEY_CACHE_TTL_MS,
            maxEntries: c.API_KEY_CACHE_MAX_ENTRIES,
            maxLiveKeys: c.API_KEYS_MAX_LIVE_PER_OWNER,
          }),
        },
        KeyCache,
        ApiKeysRepository,
        ApiKeyLookupRepository,
        OwnersRepository,
        KeyAuthenticator,
        TenancyAdminService,
        Transactions,
        ApiKeyGuard,
      ],
      exports: [TENANCY_OPTIONS, KeyAuthenticator, TenancyAdminService, OwnersRepository, ApiKeyGuard],
    };
  }
}
