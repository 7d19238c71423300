import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { resolveLanguage, type Language } from '@platform/i18n';

/**
 * The tag and request headers of a lending controller (docs/lending-api.md), named once for every area.
 * `X-Api-Key` is the security scheme's, so it is not repeated as a parameter.
 */
export const LendingApi = (tag: string) => {
  // applyDecorators applies in array order, the reverse of stacked decorators: listed bottom-up so
  // the reference shows Organization-Id, Language-Code, Api-Version.
  const headers = [
    ApiHeader({
      name: 'Organization-Id',
      required: true,
      description: 'Your organization: the owner of the key',
    }),
    ApiHeader({
      name: 'Language-Code',
      required: false,
      description:
        'Language of the `error` text, of status names and of dictionaries: en, ru, kk, uz, tr, es',
    }),
    ApiHeader({
      name: 'Api-Version',
      required: false,
      description: 'API version (`1`); without it, the current version answers (decision 0026)',
    }),
  ];
  return applyDecorators(ApiTags(tag), ...headers.reverse());
};

/** The request's language (`Language-Code`, then `Accept-Language`, then English), for localised names. */
export const RequestLanguage = createParamDecorator((_: unknown, ctx: ExecutionContext): Language =>
  resolveLanguage(ctx.switchToHttp().getRequest<IncomingMessage>().headers),
);
