import { Injectable } from '@nestjs/common';
import {
  RecurrenceError,
  RecurrenceErrorCode,
  expandRecurrence,
  occurrenceIntervals,
  type CompiledRecurrence,
  type Occurrence,
} from '@platform/recurrence';
import { RequestValidationError } from '@platform/envelope';
import type { CalendarPrincipal } from '../auth/calendar.access';
import type { EventTimeView } from '../events/event.mapper';
import { CalendarError, calendarError } from '../events/event.errors';
import { EventsRepository } from '../events/events.repository';
import { compileStored, floatingZoneOf, storedInvalid } from './event-series';
import { occurrenceTimeView } from './series-occurrences';
import { EXPAND_LIMITS, type ExpandRequest } from './dto/expand.request';

export interface OccurrenceView {
  recurrence_id: string;
  start: EventTimeView;
  end: EventTimeView;
  status: 'confirmed' | 'tentative' | 'cancelled';
  overridden: boolean;
  moved: boolean;
}

export interface ExpandView {
  items: OccurrenceView[];
  total: number;
  next_cursor: string | null;
  truncated: string | null;
}

/** `total` stops counting here: past it the number is a lower bound (the pages still reach everything). */
export const EXPAND_TOTAL_CAP = 100_000;
const DAY_MS = 86_400_000;

/** Occurrences of [from, to), counted without building them, up to the cap. */
function countIn(c: CompiledRecurrence, from: number, to: number, floatingTimeZone?: string): number {
  let n = 0;
  for (const _ of occurrenceIntervals(c, { from, to, floatingTimeZone })) {
    if (++n >= EXPAND_TOTAL_CAP) break;
  }
  return n;
}

/**
 * `/Calendar/expand`: the occurrences of one event over a range, by the engine (libs/recurrence). A
 * product with Read expands any event of the account; a person only events they take part in (owner
 * or assignee): anyone else's is "not found", exactly as a missing one, so nothing is learnt from it.
 */
@Injectable()
export class ExpandService {
  constructor(private readonly events: EventsRepository) {}

  async expand(p: CalendarPrincipal, q: ExpandRequest): Promise<ExpandView> {
    const from = Date.parse(q.from);
    const to = Date.parse(q.to);
    if (!(from < to) || to - from > EXPAND_LIMITS.maxRangeDays * DAY_MS) {
      throw calendarError(CalendarError.INVALID_RANGE, { maxDays: EXPAND_LIMITS.maxRangeDays });
    }
    let productId: string;
    if (p.kind === 'key') productId = q.product_id ?? p.productId;
    else if (q.product_id !== undefined) productId = q.product_id;
    else {
      throw new RequestValidationError([
        { field: 'product_id', rule: 'isDefined', args: { property: 'product_id' } },
      ]);
    }
    const row = await this.events.series(p.accountId, {
      productId,
      entityType: q.entity_type,
      entityId: q.entity_id,
      participant: p.kind === 'person' ? p.subject : undefined,
    });
    if (!row) throw calendarError(CalendarError.EVENT_NOT_FOUND);
    if (!row.startsAt && !row.startDate) return { items: [], total: 0, next_cursor: null, truncated: null };

    let compiled: CompiledRecurrence;
    try {
      compiled = compileStored(row);
    } catch (e) {
      if (e instanceof RecurrenceError) throw storedInvalid(e);
      throw e;
    }
    const floatingTimeZone = floatingZoneOf(row);
    try {
      const page = expandRecurrence(compiled, {
        from,
        to,
        limit: q.limit ?? EXPAND_LIMITS.defaultLimit,
        after: q.cursor ?? null,
        floatingTimeZone,
      });
      const status = row.status;
      return {
        items: page.occurrences.map((o: Occurrence) => ({
          recurrence_id: o.recurrenceId,
          start: occurrenceTimeView(o.start, row.timeZone),
          end: occurrenceTimeView(o.end, row.timeZone),
          status,
          overridden: o.overridden,
          moved: o.moved,
        })),
        total: countIn(compiled, from, to, floatingTimeZone),
        next_cursor: page.nextCursor,
        truncated: page.truncated,
      };
    } catch (e) {
      if (e instanceof RecurrenceError && e.code === RecurrenceErrorCode.INVALID_CURSOR) {
        throw calendarError(CalendarError.EXPAND_CURSOR_INVALID);
      }
      if (e instanceof RecurrenceError) throw storedInvalid(e);
      throw e;
    }
  }
}
