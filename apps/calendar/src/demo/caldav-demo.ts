import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { AppPasswordsRepository } from '../app-passwords/app-passwords.repository';
import { AppPasswordsService } from '../app-passwords/app-passwords.service';
import { personScopes, type PersonPrincipal } from '../auth/calendar.access';
import { DEFAULT_CALENDAR } from '../caldav/dav.repository';
import { hrefs } from '../caldav/dav-paths';
import type { UpsertEventRequest } from '../events/dto/upsert-event.request';
import { EventOutboxRepository } from '../events/event-outbox.repository';
import { EventsRepository } from '../events/events.repository';
import { EventsService } from '../events/events.service';
import { JournalRepository } from '../events/journal.repository';
import { IcsFeedsRepository } from '../ics-feed/ics-feeds.repository';
import { ICS_FEED_PATH, IcsFeedsService } from '../ics-feed/ics-feeds.service';
import { asAccountId, asProductId } from '../tenancy/tenant-ids';

/** The demo person: the `sub` of the PlatformSession `npm start` signs (scripts/start.ts). */
export const DEMO_PERSON = 'demo-person';
/** What the demo's own app password and feed are called, so a re-seed finds and revokes its old ones. */
const DEMO_LABEL = 'npm start demo';
const DEMO_EVENT = { entity_type: 'meeting', entity_id: 'DEMO-CALDAV-1' } as const;

/** What `seed-demo-caldav` needs beyond the access providers: the real write and credential services. */
export const CALDAV_DEMO_PROVIDERS = [
  EventsService,
  EventsRepository,
  JournalRepository,
  EventOutboxRepository,
  AppPasswordsService,
  AppPasswordsRepository,
  IcsFeedsService,
  IcsFeedsRepository,
];

export interface CaldavDemo {
  person: string;
  username: string;
  password: string;
  /** The demo person's writable default calendar (docs/caldav.md). */
  calendarPath: string;
  /** One demo product event in that calendar, owned by the demo person: read-only over CalDAV. */
  productEventHref: string;
  /** The demo person's ICS feed, below the gateway (`/Calendar/ics/<token>`). */
  icsPath: string;
}

/**
 * The CalDAV part of the development demo (docs/caldav.md, "For a new user" of issue 25): a product
 * event the demo person owns, an app password and an ICS feed for them, all made by the services the
 * API uses. A re-run keeps the event and replaces the demo's app password and feed (the old ones are
 * revoked: their secrets were shown once), so restarts never pile them up.
 */
export async function seedCaldavDemo(
  app: INestApplicationContext,
  demo: { accountId: string; productId: string },
): Promise<CaldavDemo> {
  const accountId = asAccountId(demo.accountId);
  const productId = asProductId(demo.productId);
  const person: PersonPrincipal = {
    kind: 'person',
    subject: DEMO_PERSON,
    accountId,
    isOwner: true,
    scopes: personScopes(true),
    via: 'session',
  };

  const existing = await app.get(EventsRepository).byIdentity(accountId, {
    productId,
    entityType: DEMO_EVENT.entity_type,
    entityId: DEMO_EVENT.entity_id,
  });
  const eventId = existing?.id ?? (await createDemoEvent(app, accountId, productId)).event.id;

  const passwords = app.get(AppPasswordsService);
  for (const old of await passwords.list(person)) {
    if (old.label === DEMO_LABEL) await passwords.revoke(person, old.id);
  }
  const password = await passwords.create(person, DEMO_LABEL);

  const feeds = app.get(IcsFeedsService);
  for (const old of await feeds.list(person)) {
    if (old.name === DEMO_LABEL) await feeds.revoke(person, old.id);
  }
  const feed = await feeds.create(person, { view: 'person', name: DEMO_LABEL });

  return {
    person: DEMO_PERSON,
    username: password.username,
    password: password.password,
    calendarPath: hrefs.calendar(accountId, DEMO_PERSON, DEFAULT_CALENDAR),
    productEventHref: hrefs.object(accountId, DEMO_PERSON, DEFAULT_CALENDAR, `${eventId}.ics`),
    icsPath: `${ICS_FEED_PATH}${feed.token}`,
  };
}

/** Tomorrow 10:00-11:00 in Almaty, so a freshly connected client shows it near today. */
function createDemoEvent(
  app: INestApplicationContext,
  accountId: ReturnType<typeof asAccountId>,
  productId: ReturnType<typeof asProductId>,
) {
  const day = new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);
  const request: UpsertEventRequest = {
    ...DEMO_EVENT,
    title: 'Demo CRM: call with a client',
    description: 'A product event: read-only in calendar apps, changed through POST /Calendar/upsert.',
    start: { date_time: `${day}T10:00:00+05:00`, time_zone: 'Asia/Almaty' },
    end: { date_time: `${day}T11:00:00+05:00`, time_zone: 'Asia/Almaty' },
    owner: DEMO_PERSON,
  };
  return app.get(EventsService).upsert(accountId, productId, request, randomUUID());
}
