import { join } from 'node:path';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule, brokerCheck, databaseCheck } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { BrokerProbeModule } from '@platform/kafka';
import { PersistenceModule } from '@platform/persistence';
import { ApiKeyGuard } from '@platform/tenancy';
import { CaseHistoryRepository } from './cases/case-history.repository';
import { CaseIdempotencyRepository } from './cases/case-idempotency.repository';
import { CaseMoves } from './cases/case-moves.service';
import { CaseUploadTokensRepository } from './cases/case-upload-tokens.repository';
import { CasesController } from './cases/cases.controller';
import { CasesRepository } from './cases/cases.repository';
import { CasesService } from './cases/cases.service';
import { VerificationConfig } from './config/verification.config';
import { VERIFICATION_DATABASE } from './database';
import { VerificationEvents } from './events/verification-events';
import { VerificationEventsRepository } from './events/verification-events.repository';
import { VerificationTenancy } from './tenancy/verification.tenancy';

@Module({})
export class VerificationAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: VerificationAppModule,
      imports: [
        TypedConfigModule.forRoot(VerificationConfig, env),
        PlatformI18nModule.forRoot(join(__dirname, 'i18n')),
        EnvelopeModule,
        PersistenceModule.forService(VerificationConfig, VERIFICATION_DATABASE, { name: 'verification' }),
        VerificationTenancy,
        BrokerProbeModule.forRoot(VerificationConfig),
        HealthModule.forRoot('verification', [databaseCheck, brokerCheck], [], {
          config: VerificationConfig,
        }),
      ],
      controllers: [CasesController],
      providers: [
        CasesService,
        CasesRepository,
        CaseHistoryRepository,
        CaseIdempotencyRepository,
        CaseUploadTokensRepository,
        CaseMoves,
        VerificationEvents,
        VerificationEventsRepository,
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
      ],
    };
  }
}
