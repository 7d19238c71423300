import 'reflect-metadata';
import type { DynamicModule, ExecutionContext, Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { PlatformI18nModule, PlatformLanguageResolver } from './platform-i18n.module';

const providersOf = (m: DynamicModule): Provider[] =>
  (m.imports ?? []).flatMap((i) => (i as DynamicModule).providers ?? []);

const provided = (providers: Provider[], token: unknown) =>
  providers.filter((p) => typeof p === 'object' && 'provide' in p && p.provide === token);

describe('PlatformI18nModule', () => {
  const providers = providersOf(PlatformI18nModule.forRoot());

  it('does no work per request: no language middleware, no global interceptor', () => {
    expect(provided(providers, APP_INTERCEPTOR)).toEqual([]);
    const [options] = provided(providers, 'I18nOptions') as { useValue: { disableMiddleware?: boolean } }[];
    expect(options.useValue.disableMiddleware).toBe(true);
  });

  it('answers with the platform’s language rule when nestjs-i18n asks', () => {
    const contextOf = (headers: Record<string, string>) =>
      ({ switchToHttp: () => ({ getRequest: () => ({ headers }) }) }) as unknown as ExecutionContext;
    const resolver = new PlatformLanguageResolver();
    expect(resolver.resolve(contextOf({ 'language-code': 'fr', 'accept-language': 'kk-KZ' }))).toBe('kk');
    expect(resolver.resolve(contextOf({}))).toBe('en');
  });
});
