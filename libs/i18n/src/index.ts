export { PlatformI18nModule } from './platform-i18n.module';
export {
  resolveLanguage,
  SUPPORTED_LANGUAGES,
  DEFAULT_LANGUAGE,
  LANGUAGE_NAMES,
  type Language,
} from './languages';
export { readTranslations, DirectoriesLoader, SHARED_LOCALES_DIR } from './directories.loader';
