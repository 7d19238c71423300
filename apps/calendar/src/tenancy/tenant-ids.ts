/**
 * Branded ids: a repository method that takes an `AccountId` cannot be called with a bare string, so a
 * query without its tenant does not compile.
 */
export type AccountId = string & { readonly __brand: 'AccountId' };
export type ProductId = string & { readonly __brand: 'ProductId' };

export const asAccountId = (v: string) => v as AccountId;
export const asProductId = (v: string) => v as ProductId;
