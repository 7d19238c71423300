import type { Brand } from '@platform/tenancy';

/** The tenant of public status: a business, named by the `Business-Id` header of a management call. */
export type BusinessId = Brand<string, 'BusinessId'>;
export const asBusinessId = (v: string) => v as BusinessId;
