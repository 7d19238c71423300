import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUPPORTED_LANGUAGES, type Language } from '@platform/i18n';

/**
 * Translations of the API reference: one file per language, keyed by the English text (gettext's
 * msgid convention). English is written next to the code it describes (decorators, DTOs); a changed
 * English sentence is a new key, so CI reports it as untranslated instead of serving a stale text.
 */
export const CATALOG_DIR = join(__dirname, '..', '..', 'i18n', 'src', 'api-docs');

export type Catalog = Record<string, string>;

export function readCatalog(lang: Language, dir = CATALOG_DIR): Catalog {
  const file = join(dir, `${lang}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Catalog) : {};
}

export function readCatalogs(dir = CATALOG_DIR): Record<Language, Catalog> {
  return Object.fromEntries(SUPPORTED_LANGUAGES.map((l) => [l, readCatalog(l, dir)])) as Record<
    Language,
    Catalog
  >;
}
