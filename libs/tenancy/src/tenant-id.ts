/**
 * Tenant ids are branded strings: a repository method or entity column typed `OrganizationId` does not
 * accept a bare string, so a query without its tenant does not compile. Brands are made only where
 * an id is authenticated (the guard) or created (admin), with `as...Id`.
 */
export type Brand<T, B extends string> = T & { readonly __brand: B };

/** The organization a lending or verification request acts for. */
export type OrganizationId = Brand<string, 'OrganizationId'>;
export const asOrganizationId = (v: string) => v as OrganizationId;
