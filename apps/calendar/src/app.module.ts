import { join } from 'node:path';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule, MetricsModule, brokerCheck, databaseCheck } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { BrokerProbeModule } from '@platform/kafka';
import { PersistenceModule } from '@platform/persistence';
import { AppPasswordAuthenticator } from './app-passwords/app-password-authenticator.service';
import { AppPasswordLoginsRepository } from './app-passwords/app-password-logins.unscoped.repository';
import { AppPasswordsController } from './app-passwords/app-passwords.controller';
import { AppPasswordsRepository } from './app-passwords/app-passwords.repository';
import { AppPasswordsService } from './app-passwords/app-passwords.service';
import { AvailabilityController } from './availability/availability.controller';
import { AvailabilityRepository } from './availability/availability.repository';
import { AvailabilityService } from './availability/availability.service';
import { CalendarGuard } from './auth/calendar.guard';
import { CaldavController } from './caldav/caldav.controller';
import { CaldavService } from './caldav/caldav.service';
import { DavRepository } from './caldav/dav.repository';
import { DavWriteService } from './caldav/dav-write.service';
import { ConferenceController } from './conference/conference.controller';
import { conferenceProvider } from './conference/conference.provider';
import { ConferenceRepository } from './conference/conference.repository';
import { CONFERENCE_PROVIDER, ConferenceService } from './conference/conference.service';
import { CalendarConfig } from './config/calendar.config';
import { CALENDAR_DATABASE } from './database';
import { EventOutboxRepository } from './events/event-outbox.repository';
import { EventsController } from './events/events.controller';
import { EventsReadService } from './events/events-read.service';
import { EventsRepository } from './events/events.repository';
import { EventsService } from './events/events.service';
import { JournalController } from './events/journal.controller';
import { JournalRepository } from './events/journal.repository';
import { JournalService } from './events/journal.service';
import { GrantsController } from './grants/grants.controller';
import { IcsFeedController } from './ics-feed/ics-feed.controller';
import { IcsFeedService } from './ics-feed/ics-feed.service';
import { IcsFeedTokensRepository } from './ics-feed/ics-feed-tokens.unscoped.repository';
import { IcsFeedsController } from './ics-feed/ics-feeds.controller';
import { IcsFeedsRepository } from './ics-feed/ics-feeds.repository';
import { IcsFeedsService } from './ics-feed/ics-feeds.service';
import { AttendeesRepository } from './invitations/attendees.repository';
import { InvitationsController } from './invitations/invitations.controller';
import { InvitationsService } from './invitations/invitations.service';
import { GrantsRepository } from './grants/grants.repository';
import { GrantsService } from './grants/grants.service';
import { TeamsRepository } from './grants/teams.repository';
import { ExpandController } from './recurrence/expand.controller';
import { ExpandService } from './recurrence/expand.service';
import { RequestLogRepository } from './limits/request-log.unscoped.repository';
import { RequestLogWriter } from './limits/request-log.writer';
import { DavLoginLimitsRepository } from './limits/dav-login-limits.unscoped.repository';
import { WriteLimitsRepository } from './limits/write-limits.unscoped.repository';
import { AccountsRepository } from './tenancy/accounts.unscoped.repository';
import { AccountsService } from './tenancy/accounts.service';
import { CalendarTenancy } from './tenancy/calendar.tenancy';

/** Grants, teams and accounts: what the guard, the API and the admin CLI share. */
export const CALENDAR_ACCESS_PROVIDERS = [
  GrantsService,
  GrantsRepository,
  TeamsRepository,
  AccountsService,
  AccountsRepository,
];

@Module({})
export class CalendarAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: CalendarAppModule,
      imports: [
        TypedConfigModule.forRoot(CalendarConfig, env),
        PlatformI18nModule.forRoot(join(__dirname, 'i18n')),
        EnvelopeModule,
        PersistenceModule.forService(CalendarConfig, CALENDAR_DATABASE, { name: 'calendar' }),
        CalendarTenancy,
        BrokerProbeModule.forRoot(CalendarConfig),
        MetricsModule.forRoot(),
        HealthModule.forRoot('calendar', [databaseCheck, brokerCheck], [], { config: CalendarConfig }),
      ],
      controllers: [
        CaldavController,
        EventsController,
        JournalController,
        ConferenceController,
        InvitationsController,
        AvailabilityController,
        ExpandController,
        GrantsController,
        AppPasswordsController,
        IcsFeedsController,
        IcsFeedController,
      ],
      providers: [
        ...CALENDAR_ACCESS_PROVIDERS,
        EventsService,
        EventsReadService,
        CaldavService,
        DavRepository,
        DavWriteService,
        EventsRepository,
        AvailabilityService,
        AvailabilityRepository,
        ExpandService,
        EventOutboxRepository,
        JournalRepository,
        JournalService,
        ConferenceService,
        ConferenceRepository,
        InvitationsService,
        AttendeesRepository,
        { provide: CONFERENCE_PROVIDER, useFactory: conferenceProvider, inject: [CalendarConfig] },
        RequestLogRepository,
        RequestLogWriter,
        WriteLimitsRepository,
        AppPasswordsService,
        AppPasswordsRepository,
        AppPasswordLoginsRepository,
        AppPasswordAuthenticator,
        DavLoginLimitsRepository,
        IcsFeedsService,
        IcsFeedService,
        IcsFeedsRepository,
        IcsFeedTokensRepository,
        { provide: APP_GUARD, useClass: CalendarGuard },
      ],
    };
  }
}
