/** Branded so that a repository query without its organization does not compile. */
export type OrganizationId = string & { readonly __brand: 'OrganizationId' };
export const asOrganizationId = (v: string) => v as OrganizationId;
