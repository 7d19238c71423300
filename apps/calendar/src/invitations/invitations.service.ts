import { Injectable } from '@nestjs/common';
import { RequestValidationError, type RawFieldError } from '@platform/envelope';
import type { GuestPrincipal, PersonPrincipal, ProductPrincipal } from '../auth/calendar.access';
import { CalendarConfig } from '../config/calendar.config';
import type { CalendarEvent, EventAttendeeView } from '../events/calendar-event.entity';
import { CalendarError, calendarError } from '../events/event.errors';
import { addressedEvent, assertMayChange, staleVersion } from '../events/event-access';
import { EventOutboxRepository } from '../events/event-outbox.repository';
import { EventsRepository } from '../events/events.repository';
import { JournalRepository } from '../events/journal.repository';
import { asAccountId, type AccountId } from '../tenancy/tenant-ids';
import { AttendeesRepository, type Invitee } from './attendees.repository';
import { ATTENDEE_LIMITS, type InviteRequest, type RsvpRequest } from './dto/invitations.request';
import type { AttendeeKind } from './event-attendee.entity';
import { RsvpTokens } from './rsvp-token';

export type InvitedAttendee = EventAttendeeView & { rsvp_token?: string };

export interface InviteResult {
  event_id: string;
  version: number;
  attendees: InvitedAttendee[];
  cursor: number | null;
}

export interface RsvpResult {
  event_id: string;
  version: number;
  attendee: EventAttendeeView;
  cursor: number | null;
}

const RSVP_VALID_AFTER_END_MS = 30 * 24 * 3600 * 1000;

const keyOf = (a: EventAttendeeView) => `${a.kind}:${a.id ?? a.email}`;

/**
 * Invitations with iCalendar semantics (decision 0017): adding or changing an ATTENDEE changes the
 * event, and so does an answer (a PARTSTAT change of the organizer's copy): each bumps the version (the
 * CalDAV ETag), is journaled and emits `calendar.event.changed.v1`. Inviting again and answering the same
 * again change nothing.
 */
@Injectable()
export class InvitationsService {
  /** Null in production without CALENDAR_RSVP_SECRET: guest links are off. */
  private readonly tokens: RsvpTokens | null;

  constructor(
    private readonly attendees: AttendeesRepository,
    private readonly events: EventsRepository,
    private readonly journal: JournalRepository,
    private readonly outbox: EventOutboxRepository,
    cfg: CalendarConfig,
  ) {
    const secret = cfg.rsvpSecret();
    this.tokens = secret ? new RsvpTokens(secret) : null;
  }

  async invite(
    p: ProductPrincipal | PersonPrincipal,
    req: InviteRequest,
    requestId: string,
  ): Promise<InviteResult> {
    const invitees = normalise(req);
    const id = addressedEvent(p, req);
    const current = await this.events.byIdentity(p.accountId, id);
    assertMayChange(p, current);
    if (req.version !== undefined && req.version !== current.version)
      throw staleVersion(req.version, current);
    const known = new Set(current.attendees.map(keyOf));
    const total = known.size + invitees.filter((i) => !known.has(`${i.kind}:${i.key}`)).length;
    if (total > ATTENDEE_LIMITS.perEvent) {
      throw calendarError(CalendarError.TOO_MANY_ATTENDEES, { max: ATTENDEE_LIMITS.perEvent });
    }
    const owner = p.kind === 'person' ? p.subject : undefined;
    const out = await this.attendees.invite(
      p.accountId,
      current.id,
      { version: req.version, ownerPersonId: owner },
      invitees,
      p.kind === 'person' ? `person:${p.subject}` : `product:${p.productId}`,
      this.parts(p.accountId, requestId, 'invited'),
    );
    if (out.kind === 'written') return this.inviteResult(out.event, out.cursor);
    const now = await this.events.byIdentity(p.accountId, id);
    assertMayChange(p, now);
    if (out.kind === 'not-found' && req.version !== undefined) throw staleVersion(req.version, now);
    if (out.kind === 'not-found') throw calendarError(CalendarError.EVENT_NOT_FOUND);
    return this.inviteResult(now, null);
  }

  async rsvp(p: PersonPrincipal | GuestPrincipal, req: RsvpRequest, requestId: string): Promise<RsvpResult> {
    const { accountId, eventId, who } = await this.respondent(p, req);
    if (!(await this.attendees.one(accountId, eventId, who.kind, who.key))) {
      throw calendarError(CalendarError.NOT_INVITED);
    }
    const out = await this.attendees.answer(
      accountId,
      eventId,
      who,
      req.answer,
      req.comment ?? null,
      this.parts(accountId, requestId, 'answered'),
    );
    if (out.kind === 'not-found') throw calendarError(CalendarError.EVENT_NOT_FOUND);
    const event = out.kind === 'written' ? out.event : await this.attendees.event(accountId, eventId);
    if (!event) throw calendarError(CalendarError.EVENT_NOT_FOUND);
    const attendee = event.attendees.find((a) => keyOf(a) === `${who.kind}:${who.key}`);
    if (!attendee) throw calendarError(CalendarError.NOT_INVITED);
    // Only the respondent's own entry: a guest must not learn who else was invited.
    return {
      event_id: event.id,
      version: event.version,
      attendee,
      cursor: out.kind === 'written' ? out.cursor : null,
    };
  }

  /** Who answers for which event: a guest by the signed link, a person by session and triple. */
  private async respondent(
    p: PersonPrincipal | GuestPrincipal,
    req: RsvpRequest,
  ): Promise<{ accountId: AccountId; eventId: string; who: { kind: AttendeeKind; key: string } }> {
    if (req.token !== undefined) {
      // The link names the event: a triple sent along could only disagree with it.
      if (req.product_id !== undefined || req.entity_type !== undefined || req.entity_id !== undefined) {
        throw new RequestValidationError([
          { field: 'token', rule: 'tokenOrTriple', args: { property: 'token' } },
        ]);
      }
      const claim = this.tokens ? this.tokens.verify(req.token) : 'invalid';
      if (claim === 'invalid') throw calendarError(CalendarError.RSVP_TOKEN_INVALID);
      if (claim === 'expired') throw calendarError(CalendarError.RSVP_TOKEN_EXPIRED);
      return {
        accountId: asAccountId(claim.accountId),
        eventId: claim.eventId,
        who: { kind: 'email', key: claim.email },
      };
    }
    if (p.kind !== 'person') {
      throw new RequestValidationError([{ field: 'token', rule: 'isDefined', args: { property: 'token' } }]);
    }
    const event = await this.events.byIdentity(
      p.accountId,
      addressedEvent(p, { ...req, entity_type: req.entity_type ?? '', entity_id: req.entity_id ?? '' }),
    );
    if (!event) throw calendarError(CalendarError.EVENT_NOT_FOUND);
    return { accountId: p.accountId, eventId: event.id, who: { kind: 'person', key: p.subject } };
  }

  private parts(accountId: AccountId, requestId: string, kind: 'invited' | 'answered') {
    return {
      outbox: this.outbox.changedFromRow({ tenantId: accountId, requestId }),
      journal: this.journal.entry(kind),
    };
  }

  /** The attendee list; each guest's entry with the rsvp link token to send them. */
  private inviteResult(event: CalendarEvent, cursor: number | null): InviteResult {
    const end = event.endsAt ?? event.startsAt;
    const expiresAt = end ? new Date(end).getTime() + RSVP_VALID_AFTER_END_MS : 0;
    const tokens = this.tokens;
    return {
      event_id: event.id,
      version: event.version,
      cursor,
      attendees: event.attendees.map((a) =>
        a.kind === 'email' && a.email && tokens
          ? {
              ...a,
              rsvp_token: tokens.sign({
                accountId: event.accountId,
                eventId: event.id,
                email: a.email,
                expiresAt,
              }),
            }
          : a,
      ),
    };
  }
}

/** One invitee per person id or lower-cased email (the last one sent wins); exactly one of the two. */
function normalise(req: InviteRequest): Invitee[] {
  const problems: RawFieldError[] = [];
  const byKey = new Map<string, Invitee>();
  req.attendees.forEach((a, i) => {
    const field = `attendees.${i}`;
    if ((a.kind === 'person') === (a.id === undefined) || (a.kind === 'email') === (a.email === undefined)) {
      problems.push({ field, rule: 'attendeeIdentity', args: { property: field } });
      return;
    }
    const key = a.kind === 'person' ? (a.id as string) : (a.email as string).toLowerCase();
    byKey.set(`${a.kind}:${key}`, { kind: a.kind, key, role: a.role ?? 'REQ-PARTICIPANT' });
  });
  if (problems.length) throw new RequestValidationError(problems);
  return [...byKey.values()];
}
