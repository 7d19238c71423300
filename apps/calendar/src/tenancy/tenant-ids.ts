import { service } from '@platform/registry';
import type { Brand } from '@platform/tenancy';

/**
 * Branded ids: a repository method that takes an `AccountId` cannot be called with a bare string, so a
 * query without its tenant does not compile.
 */
export type AccountId = Brand<string, 'AccountId'>;
export type ProductId = Brand<string, 'ProductId'>;

export const asAccountId = (v: string) => v as AccountId;
export const asProductId = (v: string) => v as ProductId;

/** The calendar's own schema, as the service registry declares it. */
export const CALENDAR_SCHEMA = service('calendar').schema;
