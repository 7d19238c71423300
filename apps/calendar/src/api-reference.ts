import { ENVELOPE_NOTE, tenantKeyScheme, type ApiReferenceDefinition } from '@platform/api-docs';
import { CommonError } from '@platform/envelope';
import { CalendarAppModule } from './app.module';
import { appPasswordError } from './app-passwords/app-password.errors';
import { CalendarError, calendarError } from './events/event.errors';
import { icsFeedError } from './ics-feed/ics-feed.errors';

/** The calendar's API reference: docs/openapi/calendar.<lang>.json, served by the gateway at /docs/calendar. */
export const CALENDAR_REFERENCE: ApiReferenceDefinition = {
  service: 'calendar',
  title: 'Calendar API',
  version: '1',
  description: [
    'Schedule entries reported by products, addressed by the identity triple (product_id, entity_type, entity_id).',
    ENVELOPE_NOTE,
    "Product calls: `API_KEY`, `AccountId`, `ProductId`. Person calls: `PlatformSession` (JWT). An integration needs the account owner's grant: Push (writes), Read (event details), FreeBusy (busy blocks only), Share.",
    'Writes are rate-limited per product (429 with `Retry-After` and `RateLimit-*` headers).',
    // CalDAV itself is WebDAV with XML bodies, outside this reference: the paragraph points people there.
    "CalDAV (RFC 4791) for people's calendar apps (Apple Calendar, Thunderbird, DAVx5, Evolution): root `/dav/`, found through `/.well-known/caldav`. Sign in with an app password (HTTP Basic, from `POST /Calendar/app-passwords`) or the session (`Authorization: Bearer`). A person's own events are writable there, product events read-only (403). Google Calendar and Outlook subscribe to an ICS feed instead (`POST /Calendar/ics-feeds`). Guide: `docs/caldav.md`.",
  ].join('\n\n'),
  tags: {
    Calendar: "Product events by identity triple, and the views' query.",
    'Calendar access': 'Integration grants and teams, decided by the account owner.',
    'CalDAV app passwords':
      "A person's passwords for CalDAV clients, one per device: shown once, stored hashed, revocable.",
    'ICS subscription feeds':
      'Read-only iCalendar feeds of your own, a team’s or a resource’s events, for calendar clients to subscribe to: the token is the address, shown once, stored hashed, revocable.',
  },
  module: CalendarAppModule.register({}),
  schemes: {
    'product-key': tenantKeyScheme('API_KEY', "The product's key; send `ProductId` and `AccountId` with it."),
    'platform-session': {
      header: 'PlatformSession',
      description: "A person's session: a JWT of the identity provider.",
      reasons: [CommonError.SESSION_INVALID, CommonError.TENANT_MISMATCH],
    },
  },
  denied: [CalendarError.GRANT_MISSING, CalendarError.OWNER_ONLY],
  errors: [calendarError, appPasswordError, icsFeedError],
};
