export type OrganizationId = string & { readonly __brand: 'OrganizationId' };
export const asOrganizationId = (v: string) => v as OrganizationId;
