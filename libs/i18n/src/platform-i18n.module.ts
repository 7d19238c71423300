import type { IncomingMessage } from 'node:http';
import { Module, type DynamicModule, type ExecutionContext, type Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { I18nModule, type I18nResolver } from 'nestjs-i18n';
import { DirectoriesLoader, SHARED_LOCALES_DIR } from './directories.loader';
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, resolveLanguage } from './languages';

/**
 * The platform's rule, for any nestjs-i18n API that asks for a request's language itself. No request
 * path does (see below); nestjs-i18n warns at boot when it has no resolver at all.
 */
export class PlatformLanguageResolver implements I18nResolver {
  resolve(context: ExecutionContext): string | undefined {
    const req = context.switchToHttp().getRequest<IncomingMessage | undefined>();
    return req?.headers ? resolveLanguage(req.headers) : undefined;
  }
}

/**
 * nestjs-i18n's translations, without its per-request language resolution.
 *
 * The library resolves a language on every request, in a middleware and again in a global
 * interceptor, and runs the rest of the request inside an AsyncLocalStorage context, so that
 * `I18nContext.current()` works. Nothing here reads it: a text is produced only by the envelope
 * filter and by a few gateway routes, which call `resolveLanguage(headers)` when they render and
 * pass the language to `I18nService.translate`. So the middleware is disabled and the interceptor
 * is not registered (an interceptor also puts every route through Nest's rxjs chain): the language
 * is resolved lazily, only when a text is rendered.
 */
@Module({})
export class PlatformI18nModule {
  /** @param appLocalesDir the app's own `i18n/<lang>/*.json` directory, merged over the shared texts. */
  static forRoot(appLocalesDir?: string): DynamicModule {
    const dirs = appLocalesDir ? [SHARED_LOCALES_DIR, appLocalesDir] : [SHARED_LOCALES_DIR];
    const i18n = I18nModule.forRoot({
      fallbackLanguage: DEFAULT_LANGUAGE,
      fallbacks: Object.fromEntries(SUPPORTED_LANGUAGES.map((l) => [`${l}-*`, l])),
      loaders: [new DirectoriesLoader(dirs)],
      resolvers: [new PlatformLanguageResolver()],
      disableMiddleware: true,
      logging: false,
    });
    return {
      module: PlatformI18nModule,
      global: true,
      imports: [{ ...i18n, providers: withoutGlobalInterceptor(i18n.providers ?? []) }],
      exports: [I18nModule],
    };
  }
}

function withoutGlobalInterceptor(providers: Provider[]): Provider[] {
  return providers.filter((p) => !(typeof p === 'object' && 'provide' in p && p.provide === APP_INTERCEPTOR));
}
