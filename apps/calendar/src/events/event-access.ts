import { RequestValidationError } from '@platform/envelope';
import type { PersonPrincipal, ProductPrincipal } from '../auth/calendar.access';
import { asProductId } from '../tenancy/tenant-ids';
import type { CalendarEvent } from './calendar-event.entity';
import { CalendarError, calendarError } from './event.errors';
import { toEventView } from './event.mapper';
import type { EventIdentity } from './events.repository';
import type { EventIdentityDto } from './dto/upsert-event.request';

/**
 * The event a product or a person addresses by its triple, for the writes that change an event's room
 * or attendees (decision 0017). A product addresses only its own triples (as upsert and remove do); a
 * person names the product, and may change only events they own.
 */
export function addressedEvent(p: ProductPrincipal | PersonPrincipal, req: EventIdentityDto): EventIdentity {
  if (p.kind === 'key') {
    if (req.product_id !== undefined && req.product_id !== p.productId) {
      throw calendarError(CalendarError.NOT_OWNER, { productId: req.product_id });
    }
    return { productId: p.productId, entityType: req.entity_type, entityId: req.entity_id };
  }
  if (req.product_id === undefined) {
    throw new RequestValidationError([
      { field: 'product_id', rule: 'isDefined', args: { property: 'product_id' } },
    ]);
  }
  return { productId: asProductId(req.product_id), entityType: req.entity_type, entityId: req.entity_id };
}

/** 404 when missing; 403 when a person does not own it. */
export function assertMayChange(
  p: ProductPrincipal | PersonPrincipal,
  event: CalendarEvent | null,
): asserts event is CalendarEvent {
  if (!event) throw calendarError(CalendarError.EVENT_NOT_FOUND);
  if (p.kind === 'person' && event.ownerPersonId !== p.subject) {
    throw calendarError(CalendarError.NOT_EVENT_OWNER);
  }
}

/** 409 with the event as it is now (nothing to diff: these writes send no fields). */
export function staleVersion(sent: number, current: CalendarEvent) {
  return calendarError(
    CalendarError.VERSION_CONFLICT,
    { sent, current: current.version },
    { current: toEventView(current), diff: [] },
  );
}
