import { Inject, Injectable } from '@nestjs/common';
import type { PersonPrincipal, ProductPrincipal } from '../auth/calendar.access';
import { CalendarError, calendarError } from '../events/event.errors';
import { addressedEvent, assertMayChange, staleVersion } from '../events/event-access';
import { toEventView, type EventView } from '../events/event.mapper';
import { EventOutboxRepository } from '../events/event-outbox.repository';
import { JournalRepository } from '../events/journal.repository';
import type { AttachConferenceRequest } from './dto/attach-conference.request';
import type { ConferenceProvider } from './conference.provider';
import { ConferenceRepository } from './conference.repository';

export const CONFERENCE_PROVIDER = Symbol('ConferenceProvider');

export interface AttachResult {
  event: EventView;
  /** Journal cursor of the write; null when the event had its room already. */
  cursor: number | null;
}

/**
 * Conference rooms, idempotent per event: the first call asks the provider for a room and stores it on
 * the event (version + 1, journal, outbox); later calls return the stored room and change nothing,
 * whatever version they send.
 */
@Injectable()
export class ConferenceService {
  constructor(
    private readonly events: ConferenceRepository,
    private readonly journal: JournalRepository,
    private readonly outbox: EventOutboxRepository,
    @Inject(CONFERENCE_PROVIDER) private readonly provider: ConferenceProvider,
  ) {}

  async attach(
    p: ProductPrincipal | PersonPrincipal,
    req: AttachConferenceRequest,
    requestId: string,
  ): Promise<AttachResult> {
    const id = addressedEvent(p, req);
    const current = await this.events.byIdentity(p.accountId, id);
    assertMayChange(p, current);
    if (current.conference) return { event: toEventView(current), cursor: null };
    if (req.version !== undefined && req.version !== current.version)
      throw staleVersion(req.version, current);

    const room = await this.provider.createRoom(current.id);
    const written = await this.events.attach(
      p.accountId,
      current.id,
      { ...room, created_at: new Date().toISOString() },
      { version: req.version, ownerPersonId: p.kind === 'person' ? p.subject : undefined },
      {
        outbox: this.outbox.changedFromRow({ tenantId: p.accountId, requestId }),
        journal: this.journal.entry('conference_attached'),
      },
    );
    if (written) return { event: toEventView(written.event), cursor: written.cursor };
    // Changed between the read and the write: removed, given a room by a concurrent call, moved past
    // the caller's version, or handed to another owner.
    const now = await this.events.byIdentity(p.accountId, id);
    assertMayChange(p, now);
    if (now.conference) return { event: toEventView(now), cursor: null };
    if (req.version !== undefined) throw staleVersion(req.version, now);
    throw calendarError(CalendarError.EVENT_NOT_FOUND);
  }
}
