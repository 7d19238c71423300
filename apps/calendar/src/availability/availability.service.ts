import { Injectable } from '@nestjs/common';
import type { DomainError } from '@platform/envelope';
import { RecurrenceError, busyIntervals, type CompiledRecurrence } from '@platform/recurrence';
import type { CalendarPrincipal } from '../auth/calendar.access';
import { CalendarError, calendarError, type AvailabilityCode } from '../events/event.errors';
import { compileStored, floatingZoneOf, isRecurring } from '../recurrence/event-series';
import { AvailabilityError, AvailabilityErrorReason as R } from './availability.errors';
import { AvailabilityRepository, type BusyRow } from './availability.repository';
import { findSlots } from './find-slots';
import { assertRange, freeBusy, mergeBusy, type BusyInterval, type TimeRange } from './intervals';
import { normalizeSearch } from './slot-request';
import type { ExcludedCandidate, FindSlotsRequest as SlotSearch, Slot } from './slot-search.types';
import { DAY_MS } from '@platform/time';
import type { WorkingHours } from './working-hours';
import type { FindSlotsRequest, SlotParticipantDto, WorkingHoursDto } from './dto/find-slots.request';
import { PARTICIPANT_KINDS, SLOT_DEFAULTS } from './dto/find-slots.request';
import { FREEBUSY_LIMITS, RESOURCE_REF, type FreeBusyQueryRequest } from './dto/freebusy-query.request';

export type ParticipantKind = (typeof PARTICIPANT_KINDS)[number];
export interface ParticipantRef {
  kind: ParticipantKind;
  id: string;
}

export interface BusyView {
  start: string;
  end: string;
  status: 'busy' | 'tentative';
}

export interface FreeBusyItem {
  participant: ParticipantRef;
  busy: BusyView[];
}

export interface SlotView {
  start: string;
  end: string;
  optional_free: ParticipantRef[];
  optional_busy: ParticipantRef[];
}

export interface ExcludedView {
  start: string;
  end: string;
  reasons: { participant: ParticipantRef; reason: string }[];
}

export interface FindSlotsView {
  items: SlotView[];
  total: number;
  next_cursor: string | null;
  excluded?: ExcludedView[];
  total_excluded?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Exhaustive: a new reason in the pure module does not compile until it has a code (and messages). */
const AVAILABILITY_CODES: Record<R, AvailabilityCode> = {
  [R.INVALID_RANGE]: CalendarError.AVAILABILITY_INVALID_RANGE,
  [R.RANGE_TOO_LONG]: CalendarError.AVAILABILITY_RANGE_TOO_LONG,
  [R.INVALID_INTERVAL]: CalendarError.AVAILABILITY_INVALID_INTERVAL,
  [R.TOO_MANY_INTERVALS]: CalendarError.AVAILABILITY_TOO_MANY_INTERVALS,
  [R.INVALID_TIME_ZONE]: CalendarError.AVAILABILITY_INVALID_TIME_ZONE,
  [R.INVALID_WORKING_HOURS]: CalendarError.AVAILABILITY_INVALID_WORKING_HOURS,
  [R.INVALID_WALL_TIME]: CalendarError.AVAILABILITY_INVALID_WALL_TIME,
  [R.EMPTY_SPAN]: CalendarError.AVAILABILITY_EMPTY_SPAN,
  [R.OVERLAPPING_SPANS]: CalendarError.AVAILABILITY_OVERLAPPING_SPANS,
  [R.INVALID_PARTICIPANT]: CalendarError.AVAILABILITY_INVALID_PARTICIPANT,
  [R.DUPLICATE_PARTICIPANT]: CalendarError.AVAILABILITY_DUPLICATE_PARTICIPANT,
  [R.TOO_MANY_PARTICIPANTS]: CalendarError.AVAILABILITY_TOO_MANY_PARTICIPANTS,
  [R.INVALID_DURATION]: CalendarError.AVAILABILITY_INVALID_DURATION,
  [R.INVALID_BUFFER]: CalendarError.AVAILABILITY_INVALID_BUFFER,
  [R.INVALID_GRANULARITY]: CalendarError.AVAILABILITY_INVALID_GRANULARITY,
  [R.INVALID_MAX_RESULTS]: CalendarError.AVAILABILITY_INVALID_MAX_RESULTS,
  [R.INVALID_OPTION]: CalendarError.AVAILABILITY_INVALID_OPTION,
  [R.INVALID_CURSOR]: CalendarError.AVAILABILITY_INVALID_CURSOR,
};

/**
 * The pure module names fields as its own input (`participants[2].workingHours.days.mon[0].end`); the
 * caller sent `participants.2.working_hours.days.mon.0.end`, the way field errors name them.
 */
export function apiFieldName(field: string, renames: Readonly<Record<string, string>> = {}): string {
  const dotted = field.replace(/\[(\d+)\]/g, '.$1').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return renames[dotted] ?? dotted;
}

/** An AvailabilityError as the calendar's coded 400, with the field the caller sent and the limit. */
export function toDomainError(e: AvailabilityError, renames?: Readonly<Record<string, string>>): DomainError {
  const field = apiFieldName(e.field, renames);
  const details = { field, ...e.details };
  return calendarError(AVAILABILITY_CODES[e.reason], details, details);
}

async function mappingErrors<T>(renames: Record<string, string>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof AvailabilityError) throw toDomainError(e, renames);
    throw e;
  }
}

/** Free/busy has `from`/`to` where the pure module has a range. */
const FREEBUSY_FIELDS = { range: 'to', 'range.from': 'from', 'range.to': 'to' };

/** Busy intervals one recurring event may contribute to a range; past it the series counts as cut. */
export const MAX_BUSY_PER_SERIES = 5_000;

/**
 * The busy intervals of an event read for [range.from, range.to): a plain event is its own interval;
 * a recurring master is expanded by libs/recurrence (in the event's zone, EXDATE/RDATE and overrides
 * applied: a cancelled occurrence is never busy, a moved one is busy at its new time), at most
 * MAX_BUSY_PER_SERIES intervals. A stored series the engine refuses (saved before write-time
 * validation) blocks its own first occurrence, as before recurrence was expanded. No transparency field
 * exists: a confirmed event is busy, a tentative one tentative; the repository leaves cancelled ones out.
 */
export function busyIntervalsOf(row: BusyRow, range: TimeRange): BusyInterval[] {
  const kind = row.status === 'tentative' ? 'tentative' : 'busy';
  const own = [{ start: row.startsAt.getTime(), end: row.endsAt.getTime(), kind }] as BusyInterval[];
  if (!isRecurring(row)) return own;
  let compiled: CompiledRecurrence;
  try {
    compiled = compileStored(row);
  } catch (e) {
    if (e instanceof RecurrenceError) return own;
    throw e;
  }
  const { intervals } = busyIntervals([compiled], {
    from: range.from,
    to: range.to,
    floatingTimeZone: floatingZoneOf(row),
    maxPerSeries: MAX_BUSY_PER_SERIES,
  });
  return intervals.map((iv) => ({ start: iv.start, end: iv.end, kind }));
}

/** Each participant's intervals from rows that name them among their people or resources. */
function intervalsByParticipant(
  rows: readonly BusyRow[],
  participants: readonly ParticipantRef[],
  range: TimeRange,
): BusyInterval[][] {
  const index = new Map<string, number[]>();
  participants.forEach((p, i) => {
    const k = `${p.kind}\u0000${p.id}`;
    index.set(k, [...(index.get(k) ?? []), i]);
  });
  const out = participants.map((): BusyInterval[] => []);
  for (const row of rows) {
    const intervals = busyIntervalsOf(row, range);
    const keys = [
      ...row.personIds.map((id) => `person\u0000${id}`),
      ...row.resourceIds.map((id) => `resource\u0000${id}`),
    ];
    for (const k of keys) for (const i of index.get(k) ?? []) out[i].push(...intervals);
  }
  return out;
}

function toWorkingHours(w: WorkingHoursDto | undefined): WorkingHours | undefined {
  if (!w) return undefined;
  const days: WorkingHours['days'] = {};
  for (const d of ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const) {
    const spans = w.days[d];
    if (spans !== undefined) days[d] = spans.map((s) => ({ start: s.start, end: s.end }));
  }
  return { timeZone: w.time_zone, days };
}

/** Participants in input order; ids unique per kind; a resource named `type:id` as events store it. */
function slotParticipants(list: readonly SlotParticipantDto[]): ParticipantRef[] {
  const seen = new Set<string>();
  return list.map((p, i) => {
    if (p.kind === 'resource' && !RESOURCE_REF.test(p.id)) {
      throw new AvailabilityError(R.INVALID_PARTICIPANT, `participants[${i}].id`);
    }
    const key = `${p.kind}\u0000${p.id}`;
    if (seen.has(key))
      throw new AvailabilityError(R.DUPLICATE_PARTICIPANT, `participants[${i}].id`, { id: p.id });
    seen.add(key);
    return { kind: p.kind, id: p.id };
  });
}

/**
 * Free/busy and slot search over the account's events. Reads only: no journal, no outbox, no write
 * limit. Who may call is the route's business (Read or FreeBusy; every person of the account): the
 * answers carry busy time only, so a person sees any colleague's and any room's free/busy, and the
 * account id bound from the principal keeps every statement inside the caller's account.
 */
@Injectable()
export class AvailabilityService {
  constructor(private readonly repo: AvailabilityRepository) {}

  freeBusy(p: CalendarPrincipal, q: FreeBusyQueryRequest): Promise<{ items: FreeBusyItem[]; total: number }> {
    return mappingErrors(FREEBUSY_FIELDS, async () => {
      const people = [...new Set(q.people ?? [])];
      const resources = [...new Set(q.resources ?? [])];
      if (!people.length && !resources.length) throw new AvailabilityError(R.INVALID_PARTICIPANT, 'people');
      const range = { from: Date.parse(q.from), to: Date.parse(q.to) };
      assertRange(range, 'range');
      if (range.to - range.from > FREEBUSY_LIMITS.maxRangeDays * DAY_MS) {
        throw new AvailabilityError(R.RANGE_TOO_LONG, 'range', { maxDays: FREEBUSY_LIMITS.maxRangeDays });
      }
      const participants: ParticipantRef[] = [
        ...people.map((id) => ({ kind: 'person' as const, id })),
        ...resources.map((id) => ({ kind: 'resource' as const, id })),
      ];
      const rows = await this.repo.busyRows(p.accountId, {
        people,
        resources,
        from: new Date(range.from),
        to: new Date(range.to),
      });
      const busy = intervalsByParticipant(rows, participants, range);
      const merged = freeBusy(
        participants.map((_, i) => ({ id: String(i), intervals: busy[i] })),
        range,
      );
      const items = merged.map((m, i) => ({
        participant: participants[i],
        busy: m.intervals.map((iv) => ({ start: iso(iv.start), end: iso(iv.end), status: iv.kind })),
      }));
      return { items, total: items.length };
    });
  }

  findSlots(p: CalendarPrincipal, body: FindSlotsRequest): Promise<FindSlotsView> {
    return mappingErrors({}, async () => {
      const participants = slotParticipants(body.participants);
      const search: SlotSearch = {
        // Ids are positions: a person and a room may share an id, the search needs them unique.
        participants: body.participants.map((dto, i) => ({
          id: String(i),
          kind: dto.kind,
          required: dto.required ?? true,
          busy: [],
          workingHours: toWorkingHours(dto.working_hours),
        })),
        durationMinutes: body.duration_minutes,
        range: { from: Date.parse(body.range.from), to: Date.parse(body.range.to) },
        granularityMinutes: body.granularity_minutes ?? SLOT_DEFAULTS.granularityMinutes,
        maxResults: body.max_results ?? SLOT_DEFAULTS.maxResults,
        bufferBeforeMinutes: body.buffer_before_minutes ?? 0,
        bufferAfterMinutes: body.buffer_after_minutes ?? 0,
        tentativeAsFree: body.tentative_as_free ?? false,
        explain: body.explain ?? false,
        cursor: body.cursor ?? null,
      };
      // Everything is checked before the database is asked: the window to load is then bounded.
      const checked = normalizeSearch(search);
      // Busy time where buffers at the range's edges can see it: [from - before, to + after).
      const window = {
        from: checked.range.from - checked.bufferBeforeMs,
        to: checked.range.to + checked.bufferAfterMs,
      };
      const rows = await this.repo.busyRows(p.accountId, {
        people: [...new Set(participants.filter((x) => x.kind === 'person').map((x) => x.id))],
        resources: [...new Set(participants.filter((x) => x.kind === 'resource').map((x) => x.id))],
        from: new Date(window.from),
        to: new Date(window.to),
      });
      const busy = intervalsByParticipant(rows, participants, window);
      const result = findSlots({
        ...search,
        participants: search.participants.map((sp, i) => ({ ...sp, busy: mergeBusy(busy[i], window) })),
      });
      const ref = (id: string) => participants[Number(id)];
      const view: FindSlotsView = {
        items: result.slots.map((s: Slot) => ({
          start: iso(s.start),
          end: iso(s.end),
          optional_free: s.optionalFree.map(ref),
          optional_busy: s.optionalBusy.map(ref),
        })),
        total: result.totalSlots,
        next_cursor: result.nextCursor,
      };
      if (result.excluded) {
        view.excluded = result.excluded.map((x: ExcludedCandidate) => ({
          start: iso(x.start),
          end: iso(x.end),
          reasons: x.reasons.map((r) => ({ participant: ref(r.participant), reason: r.reason })),
        }));
        view.total_excluded = result.totalExcluded;
      }
      return view;
    });
  }
}
