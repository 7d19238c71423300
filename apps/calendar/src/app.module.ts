import { join } from 'node:path';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule, brokerCheck, databaseCheck } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { BrokerProbeModule } from '@platform/kafka';
import { PersistenceModule } from '@platform/persistence';
import { CalendarGuard } from './auth/calendar.guard';
import { CalendarConfig } from './config/calendar.config';
import { CalendarEvent } from './events/calendar-event.entity';
import { EventsController } from './events/events.controller';
import { EventsService } from './events/events.service';
import { EventsQuery } from './events/events.query';
import { GrantsController } from './grants/grants.controller';
import { IntegrationGrant, TeamMember } from './grants/integration-grant.entity';
import { CALENDAR_MIGRATIONS } from './migrations';
import { Account } from './tenancy/account.entity';
import { Product } from './tenancy/product.entity';
import { ProductKey } from './tenancy/product-key.entity';

export const CALENDAR_ENTITIES = [Account, Product, ProductKey, CalendarEvent, IntegrationGrant, TeamMember];

@Module({})
export class CalendarAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: CalendarAppModule,
      imports: [
        TypedConfigModule.forRoot(CalendarConfig, env),
        PlatformI18nModule.forRoot(join(__dirname, 'i18n')),
        EnvelopeModule,
        PersistenceModule.forRootAsync({
          inject: [CalendarConfig],
          useFactory: (c: CalendarConfig) => ({
            url: c.DATABASE_URL,
            schema: c.DB_SCHEMA,
            poolMax: c.DB_POOL_MAX,
            applicationName: `calendar-${c.INSTANCE_ID}`,
            entities: CALENDAR_ENTITIES,
            migrations: CALENDAR_MIGRATIONS,
          }),
        }),
        TypeOrmModule.forFeature(CALENDAR_ENTITIES),
        BrokerProbeModule.forRoot(CalendarConfig),
        HealthModule.forRoot('calendar', [databaseCheck, brokerCheck]),
      ],
      controllers: [EventsController, GrantsController],
      providers: [EventsService, EventsQuery, { provide: APP_GUARD, useClass: CalendarGuard }],
    };
  }
}
