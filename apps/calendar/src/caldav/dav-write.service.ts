import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EventFields } from '../events/event.mapper';
import { EventOutboxRepository } from '../events/event-outbox.repository';
import { EventsRepository, type EventIdentity } from '../events/events.repository';
import { JournalRepository } from '../events/journal.repository';
import { asProductId } from '../tenancy/tenant-ids';
import { DavError, davError } from './dav.errors';
import { PERSONAL_ENTITY_TYPE, PERSONAL_PRODUCT, type DavCollection, type DavMember } from './dav.repository';
import type { DavObject } from './ical-reader';

/** A person's own event as its columns: the event's fields and the CalDAV resource it is. */
type PersonalFields = EventFields & { davCalendar: string; davName: string; icalUid: string; ical: string };

export interface PutOutcome {
  created: boolean;
  version: number;
}

const identityOf = (entityId: string): EventIdentity => ({
  productId: asProductId(PERSONAL_PRODUCT),
  entityType: PERSONAL_ENTITY_TYPE,
  entityId,
});

/** PostgreSQL's unique violation, by the index it hit. */
function uniqueViolation(err: unknown): string | undefined {
  const e = err as {
    driverError?: { code?: string; constraint?: string };
    code?: string;
    constraint?: string;
  };
  const code = e.driverError?.code ?? e.code;
  return code === '23505' ? (e.driverError?.constraint ?? e.constraint ?? '') : undefined;
}

/**
 * Writes of a person's own events over CalDAV: the same one-statement write as the JSON API's upsert
 * (version check, journal entry, outbox event; events.service.ts), under the reserved product
 * `personal`. The ETag is the version, so If-Match is the version the write expects.
 */
@Injectable()
export class DavWriteService {
  constructor(
    private readonly events: EventsRepository,
    private readonly journal: JournalRepository,
    private readonly outbox: EventOutboxRepository,
  ) {}

  /**
   * Creates the resource (`current` null) or replaces it at `expected` (the current version unless
   * If-Match named one). A concurrent writer that got there first makes it a 412, as a stale If-Match.
   */
  async put(
    c: DavCollection,
    name: string,
    obj: DavObject,
    current: DavMember | null,
    requestId: string,
  ): Promise<PutOutcome> {
    const entityId = current?.entityId ?? randomUUID();
    const expected = current?.version ?? 0;
    const fields: PersonalFields = {
      ...obj.fields,
      davCalendar: c.calendar,
      davName: name,
      icalUid: obj.uid,
      ical: obj.ical,
    };
    let outcome;
    try {
      outcome = await this.events.upsertAtVersion(c.accountId, identityOf(entityId), fields, expected, {
        outbox: this.outbox.changed(
          {
            accountId: c.accountId,
            productId: asProductId(PERSONAL_PRODUCT),
            entityType: PERSONAL_ENTITY_TYPE,
            entityId,
            version: expected + 1,
            title: fields.title,
            startsAt: fields.startsAt?.toISOString() ?? null,
            endsAt: fields.endsAt?.toISOString() ?? null,
            status: fields.status,
          },
          { tenantId: c.accountId, requestId },
        ),
        journal: this.journal.entry(expected === 0 ? 'created' : 'updated'),
      });
    } catch (err) {
      const index = uniqueViolation(err);
      if (index === 'events_dav_uid_uq') throw davError(DavError.UID_CONFLICT, { uid: obj.uid });
      if (index !== undefined) throw davError(DavError.PRECONDITION_FAILED);
      throw err;
    }
    if (outcome.kind === 'unknown-account') throw davError(DavError.NOT_FOUND);
    if (outcome.kind === 'unchanged') throw davError(DavError.PRECONDITION_FAILED);
    return { created: expected === 0, version: outcome.event.version };
  }

  /** Deletes a person's own event at its version; false when it was changed or removed meanwhile. */
  async remove(c: DavCollection, member: DavMember, requestId: string): Promise<boolean> {
    const removed = await this.events.removeAtVersion(
      c.accountId,
      identityOf(member.entityId),
      member.version,
      {
        outbox: this.outbox.removed(
          {
            accountId: c.accountId,
            productId: asProductId(PERSONAL_PRODUCT),
            entityType: PERSONAL_ENTITY_TYPE,
            entityId: member.entityId,
            removedAt: new Date().toISOString(),
          },
          { tenantId: c.accountId, requestId },
        ),
        journal: this.journal.entry('removed'),
      },
    );
    return removed !== null;
  }
}
