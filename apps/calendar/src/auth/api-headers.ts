import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

/**
 * The calendar's request headers as the API reference documents them, named once (their texts are
 * translation keys in libs/i18n/src/api-docs). Controllers pick the set matching how they are called.
 */
const ACCOUNT = 'The account whose calendar is addressed';

export const ApiLanguageHeader = () =>
  ApiHeader({
    name: 'Language-Code',
    required: false,
    description: 'Language of the `error` text: en, ru, kk, uz, tr, es',
  });

/** `AccountId` alone (routes whose product header is per method). */
export const ApiAccountHeader = () => ApiHeader({ name: 'AccountId', required: true, description: ACCOUNT });

/** `ProductId` where a person may call instead of a product (per method). */
export const ApiOptionalProductHeader = () =>
  ApiHeader({ name: 'ProductId', required: false, description: 'Your product (with a product key)' });

/** A person's session instead of a product key (per method). */
export const ApiSessionHeader = () =>
  ApiHeader({ name: 'PlatformSession', required: false, description: 'A person instead of a product key' });

/**
 * A product's key, account and product, then the language: `product` when only a product key may
 * call, `product-or-person` when a person's session may call instead (every credential header optional).
 */
export function ApiCallerHeaders(callers: 'product' | 'product-or-person') {
  const person = callers === 'product-or-person';
  // applyDecorators applies in array order, the reverse of stacked decorators; the reference lists
  // the headers as written here, as the stacked form did.
  const headers = [
    ApiHeader({
      name: 'API_KEY',
      required: !person,
      description: person ? 'Product key (or PlatformSession)' : 'Product key',
    }),
    ApiHeader({ name: 'AccountId', required: !person, description: ACCOUNT }),
    ApiHeader({ name: 'ProductId', required: !person, description: 'Your product: the owner of the key' }),
    ...(person ? [ApiSessionHeader()] : []),
    ApiLanguageHeader(),
  ];
  return applyDecorators(...headers.reverse());
}
