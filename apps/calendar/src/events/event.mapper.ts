import { RequestValidationError, isCalendarDate, type RawFieldError } from '@platform/envelope';
import type {
  CalendarEvent,
  EventAttendeeView,
  EventConference,
  EventResource,
  EventStatus,
  EventTransparency,
  EventVisibility,
  StoredOverride,
  StoredTime,
} from './calendar-event.entity';
import type { EventTimeDto } from './dto/event-time.dto';
import { localDateTime, resolveZone, UTC } from '@platform/time';
import type { EventOverrideDto, UpsertEventRequest } from './dto/upsert-event.request';
import { assertValidSeries, seriesEndOf } from '../recurrence/event-series';

/** The columns an upsert replaces: everything but identity, version and timestamps. */
export interface EventFields {
  title: string | null;
  description: string | null;
  location: string | null;
  allDay: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  startDate: string | null;
  endDate: string | null;
  timeZone: string | null;
  status: EventStatus;
  visibility: EventVisibility;
  transparency: EventTransparency;
  ownerPersonId: string | null;
  assigneeIds: string[];
  personIds: string[];
  resources: EventResource[];
  resourceIds: string[];
  recurrence: string[];
  recurrenceOverrides: StoredOverride[];
  /** End of a bounded series' last occurrence (seriesEndOf); null for others. */
  seriesEndsAt: Date | null;
  metadata: Record<string, string>;
}

const DAY_MS = 24 * 3600 * 1000;
const MIN_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const MAX_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Midnight of a calendar date in a zone, as an instant (libs/time: a midnight skipped by a transition
 * is read with the offset before it, RFC 5545); an unknown zone (checked before) is read as UTC.
 */
export function midnightIn(date: string, timeZone: string | null): Date {
  const utc = new Date(`${date}T00:00:00Z`);
  if (!timeZone || timeZone === 'UTC') return utc;
  return new Date((resolveZone(timeZone) ?? UTC).toInstant(utc.getTime()));
}

/** The next days; past 9999-12-31 the result is no calendar date (checked by the caller). */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Turns a request into columns, checking the rules that span fields. Problems are reported as field
 * errors, like any other validation failure.
 */
export function toEventFields(req: UpsertEventRequest): EventFields {
  const problems: RawFieldError[] = [];
  const fail = (field: string, rule: string, args: Record<string, unknown> = {}) =>
    problems.push({ field, rule, args: { property: field, ...args } });
  const kind = (t: EventTimeDto | undefined, name: string): 'timed' | 'date' | undefined => {
    if (!t) return undefined;
    if (t.date_time && !t.date) return 'timed';
    if (t.date && !t.date_time) return 'date';
    fail(name, 'timeKind');
    return undefined;
  };
  const startKind = kind(req.start, 'start');
  const endKind = kind(req.end, 'end');
  if (req.end && !req.start) fail('start', 'isDefined');
  if (startKind && endKind && startKind !== endKind) fail('end', 'sameKindAsStart');
  // Dates and instants were checked by the DTO (real days, years 0001-9999); nothing below runs on
  // a request that already has problems.
  if (problems.length) throw new RequestValidationError(problems);

  let allDay = false;
  let startsAt: Date | null = null;
  let endsAt: Date | null = null;
  let startDate: string | null = null;
  let endDate: string | null = null;
  const timeZone = req.start?.time_zone ?? req.end?.time_zone ?? null;
  if (startKind === 'timed' && req.start?.date_time) {
    startsAt = new Date(req.start.date_time);
    endsAt = req.end?.date_time ? new Date(req.end.date_time) : startsAt;
  } else if (startKind === 'date' && req.start?.date) {
    allDay = true;
    startDate = req.start.date;
    endDate = req.end?.date ?? addDays(startDate, 1);
    if (!isCalendarDate(endDate)) {
      fail('end', 'inSupportedRange');
      throw new RequestValidationError(problems);
    }
    startsAt = midnightIn(startDate, timeZone);
    endsAt = midnightIn(endDate, timeZone);
  }
  // An all-day event on 9999-12-31 would end on a day no date type holds; a date near year 1 in an
  // eastern zone would begin in year 0, which PostgreSQL does not have.
  for (const [field, at] of [
    ['start', startsAt],
    ['end', endsAt],
  ] as const) {
    if (at && (Number.isNaN(at.getTime()) || at.getTime() < MIN_INSTANT || at.getTime() > MAX_INSTANT)) {
      fail(field, 'inSupportedRange');
    }
  }
  if (problems.length) throw new RequestValidationError(problems);
  if (startsAt && endsAt && endsAt < startsAt) fail('end', 'notBeforeStart');

  if (problems.length) throw new RequestValidationError(problems);

  const recurrence = req.recurrence ?? [];
  const recurrenceOverrides = (req.overrides ?? []).map(storedOverride);
  // 400 with the engine's reason when a line or an override does not fit the series.
  const series = { allDay, startsAt, endsAt, startDate, endDate, timeZone, recurrence, recurrenceOverrides };
  assertValidSeries(series);

  const resources = (req.resources ?? []).map((r) => ({ type: r.type, id: r.id }));
  const assigneeIds = [...new Set(req.assignees ?? [])];
  return {
    title: req.title ?? null,
    description: req.description ?? null,
    location: req.location ?? null,
    allDay,
    startsAt,
    endsAt,
    startDate,
    endDate,
    timeZone,
    status: req.status ?? 'confirmed',
    visibility: req.visibility ?? 'default',
    transparency: req.transparency ?? 'opaque',
    ownerPersonId: req.owner ?? null,
    assigneeIds,
    personIds: [...new Set([...(req.owner ? [req.owner] : []), ...assigneeIds])],
    resources,
    resourceIds: [...new Set(resources.map((r) => `${r.type}:${r.id}`))],
    recurrence,
    recurrenceOverrides,
    seriesEndsAt: seriesEndOf(series),
    // Shape and limits were checked by the DTO's FreeFormMap; keys are stored exactly as sent.
    metadata: req.metadata ?? {},
  };
}

/** Only the keys that were sent, so what is stored (and shown, and diffed) is what the caller said. */
function storedTime(t: { date_time?: string; time_zone?: string; date?: string }): StoredTime {
  return {
    ...(t.date_time !== undefined ? { date_time: t.date_time } : {}),
    ...(t.time_zone !== undefined ? { time_zone: t.time_zone } : {}),
    ...(t.date !== undefined ? { date: t.date } : {}),
  };
}

function storedOverride(o: EventOverrideDto): StoredOverride {
  if (o.cancelled === true) return { recurrence_id: o.recurrence_id, cancelled: true };
  return {
    recurrence_id: o.recurrence_id,
    ...(o.start ? { start: storedTime(o.start) } : {}),
    ...(o.end ? { end: storedTime(o.end) } : {}),
  };
}

export interface EventTimeView {
  date_time?: string;
  date?: string;
  time_zone?: string;
}

/** What the API says about an event (also the 409 body's `current`). */
export interface EventView {
  id: string;
  product_id: string;
  entity_type: string;
  entity_id: string;
  version: number;
  title: string | null;
  description: string | null;
  location: string | null;
  start: EventTimeView | null;
  end: EventTimeView | null;
  all_day: boolean;
  status: EventStatus;
  visibility: EventVisibility;
  transparency: EventTransparency;
  owner: string | null;
  assignees: string[];
  resources: EventResource[];
  recurrence: string[];
  /** Moved or cancelled occurrences of the series, as sent. */
  overrides: StoredOverride[];
  metadata: Record<string, string>;
  /** The room link, when one was attached. */
  conference?: EventConference;
  /** Invited people and guests, when there are any. */
  attendees?: EventAttendeeView[];
  created_at: string;
  updated_at: string;
}

/**
 * A time as the caller can use it: a date for all-day events; otherwise the wall time of the event's
 * zone with the zone's offset at that instant (`2026-12-01T10:00:00+05:00`, Asia/Almaty), or UTC (`Z`)
 * for an event without a zone.
 */
export function timeView(
  at: Date | null,
  date: string | null,
  allDay: boolean,
  tz: string | null,
): EventTimeView | null {
  if (allDay && date) return { date, ...(tz ? { time_zone: tz } : {}) };
  if (at) return tz ? { date_time: localDateTime(at, tz), time_zone: tz } : { date_time: at.toISOString() };
  return null;
}

/**
 * What `toEventView` reads: an entity, or a plain row selected under the entity's property names (the
 * hot reads select only these columns and skip ORM hydration; see event-read.repository.ts).
 */
export type EventViewSource = Pick<
  CalendarEvent,
  | 'id'
  | 'productId'
  | 'entityType'
  | 'entityId'
  | 'version'
  | 'title'
  | 'description'
  | 'location'
  | 'allDay'
  | 'startsAt'
  | 'endsAt'
  | 'startDate'
  | 'endDate'
  | 'timeZone'
  | 'status'
  | 'visibility'
  | 'transparency'
  | 'ownerPersonId'
  | 'assigneeIds'
  | 'resources'
  | 'recurrence'
  | 'recurrenceOverrides'
  | 'metadata'
  | 'createdAt'
  | 'updatedAt'
> &
  Partial<Pick<CalendarEvent, 'conference' | 'attendees'>>;

export function toEventView(e: EventViewSource): EventView {
  return {
    id: e.id,
    product_id: e.productId,
    entity_type: e.entityType,
    entity_id: e.entityId,
    version: e.version,
    title: e.title,
    description: e.description,
    location: e.location,
    start: timeView(e.startsAt, e.startDate, e.allDay, e.timeZone),
    end: timeView(e.endsAt, e.endDate, e.allDay, e.timeZone),
    all_day: e.allDay,
    status: e.status,
    visibility: e.visibility,
    transparency: e.transparency,
    owner: e.ownerPersonId,
    assignees: e.assigneeIds,
    resources: e.resources,
    recurrence: e.recurrence,
    overrides: e.recurrenceOverrides ?? [],
    metadata: e.metadata,
    ...(e.conference ? { conference: e.conference } : {}),
    ...(e.attendees?.length ? { attendees: e.attendees } : {}),
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

export interface FieldDiff {
  field: string;
  sent: unknown;
  current: unknown;
}

const COMPARED = [
  'title',
  'description',
  'location',
  'start',
  'end',
  'status',
  'visibility',
  'transparency',
  'owner',
  'assignees',
  'resources',
  'recurrence',
  'overrides',
  'metadata',
] as const;

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${k}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * Field-level differences between what the caller sent (as the event would look) and the current
 * event, so a person's comparison dialog needs no second call.
 */
export function diffAgainst(sent: EventFields, current: CalendarEvent): FieldDiff[] {
  const now = new Date(0);
  const proposed = toEventView({ ...current, ...sent, createdAt: now, updatedAt: now } as CalendarEvent);
  const existing = toEventView(current);
  return COMPARED.filter((f) => canonical(proposed[f]) !== canonical(existing[f])).map((field) => ({
    field,
    sent: proposed[field],
    current: existing[field],
  }));
}
