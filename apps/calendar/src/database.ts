import type { ServiceDatabase } from '@platform/persistence';
import { AppPassword } from './app-passwords/app-password.entity';
import { DavCalendar } from './caldav/dav-calendar.entity';
import { CalendarEvent } from './events/calendar-event.entity';
import { AccountCursor, JournalRecord } from './events/journal.entity';
import { IntegrationGrant, TeamMember } from './grants/integration-grant.entity';
import { IcsFeed } from './ics-feed/ics-feed.entity';
import { EventAttendee } from './invitations/event-attendee.entity';
import { RequestLogRecord } from './limits/request-log.entity';
import { CALENDAR_MIGRATIONS } from './migrations';
import { Account } from './tenancy/account.entity';
import { ProductKey } from './tenancy/calendar.tenancy';
import { Product } from './tenancy/product.entity';
import { CALENDAR_SCHEMA } from './tenancy/tenant-ids';

/** Calendar's schema, entities and migrations (the app and its admin CLI both use this). */
export const CALENDAR_DATABASE: ServiceDatabase = {
  schema: CALENDAR_SCHEMA,
  entities: [
    Account,
    Product,
    ProductKey,
    CalendarEvent,
    EventAttendee,
    IntegrationGrant,
    TeamMember,
    JournalRecord,
    AccountCursor,
    RequestLogRecord,
    AppPassword,
    IcsFeed,
    DavCalendar,
  ],
  migrations: CALENDAR_MIGRATIONS,
};
