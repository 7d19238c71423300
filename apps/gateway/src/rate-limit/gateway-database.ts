import { service } from '@platform/registry';

/** The gateway's schema (libs/registry): rate-limit leases only, no business data and no outbox. */
export const GATEWAY_SCHEMA = service('gateway').schema;
