import { Module, RequestMethod, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { VerificationTenancy } from '../tenancy/verification.tenancy';
import { ActivityController } from './activity.controller';
import { ActivityLogMiddleware } from './activity-log.middleware';
import { ActivityLogWriter } from './activity-log.writer';
import { ActivityRepository } from './activity.repository';
import { ActivityService } from './activity.service';
import { IpAllowlistService } from './ip-allowlist.service';
import { OAuthController } from './oauth.controller';
import { oauthFormBody } from './oauth-form.middleware';
import { OAuthTokenLookupRepository } from './oauth-token-lookup.unscoped.repository';
import { OAuthTokensRepository } from './oauth-tokens.repository';
import { OAuthService } from './oauth.service';
import { OrganizationSettingsController } from './organization-settings.controller';
import { OrganizationSettingsRepository } from './organization-settings.repository';
import { UsageController } from './usage.controller';
import { UsageRepository } from './usage.repository';
import { UsageService } from './usage.service';
import { VerificationAccessGuard } from './verification-access.guard';

/**
 * Access to verification (docs/verification/access.md): the global guard (API key or bearer token, IP
 * allowlist first), the OAuth token endpoint, the IP allowlist setting, the activity history of every
 * authenticated write (its middleware sees every route, whichever module serves it) and usage.
 */
@Module({
  imports: [VerificationTenancy],
  controllers: [OAuthController, OrganizationSettingsController, ActivityController, UsageController],
  providers: [
    OAuthService,
    OAuthTokensRepository,
    OAuthTokenLookupRepository,
    IpAllowlistService,
    OrganizationSettingsRepository,
    ActivityRepository,
    ActivityLogWriter,
    ActivityService,
    UsageRepository,
    UsageService,
    VerificationAccessGuard,
  ],
  exports: [VerificationAccessGuard, IpAllowlistService, ActivityLogWriter],
})
export class AccessModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(oauthFormBody).forRoutes({ path: 'api/v1/oauth/token', method: RequestMethod.POST });
    consumer.apply(ActivityLogMiddleware).forRoutes('*');
  }
}
