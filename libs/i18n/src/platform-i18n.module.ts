import { Module, type DynamicModule } from '@nestjs/common';
import { AcceptLanguageResolver, HeaderResolver, I18nModule } from 'nestjs-i18n';
import { DirectoriesLoader, SHARED_LOCALES_DIR } from './directories.loader';
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES } from './languages';

@Module({})
export class PlatformI18nModule {
  /** @param appLocalesDir the app's own `i18n/<lang>/*.json` directory, merged over the shared texts. */
  static forRoot(appLocalesDir?: string): DynamicModule {
    const dirs = appLocalesDir ? [SHARED_LOCALES_DIR, appLocalesDir] : [SHARED_LOCALES_DIR];
    return {
      module: PlatformI18nModule,
      global: true,
      imports: [
        I18nModule.forRoot({
          fallbackLanguage: DEFAULT_LANGUAGE,
          fallbacks: Object.fromEntries(SUPPORTED_LANGUAGES.map((l) => [`${l}-*`, l])),
          loaders: [new DirectoriesLoader(dirs)],
          resolvers: [new HeaderResolver(['language-code']), AcceptLanguageResolver],
          logging: false,
        }),
      ],
      exports: [I18nModule],
    };
  }
}
