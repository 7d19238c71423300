/**
 * People's own events (migration Caldav): stored under the reserved product `personal`, entity type
 * `caldav`, owned by the person. The guard refuses any key of that product.
 */
export const PERSONAL_PRODUCT = 'personal';
export const PERSONAL_ENTITY_TYPE = 'caldav';
/** Every person's implicit calendar: their own events and the product events they take part in. */
export const DEFAULT_CALENDAR = 'default';
