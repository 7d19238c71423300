import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { I18nLoader, type I18nTranslation } from 'nestjs-i18n';
import { SUPPORTED_LANGUAGES } from './languages';

/** Directory of the shared texts (common errors, validation rules, health). */
export const SHARED_LOCALES_DIR = join(__dirname, 'locales');

type Tree = { [key: string]: string | Tree };

/**
 * Reads `<dir>/<lang>/<namespace>.json` from the shared directory and from each app's own directory, so
 * an app owns its texts while the shared ones are written once.
 */
export function readTranslations(dirs: string[]): Record<string, Record<string, Tree>> {
  const out: Record<string, Record<string, Tree>> = {};
  for (const lang of SUPPORTED_LANGUAGES) {
    out[lang] = {};
    for (const dir of dirs) {
      const langDir = join(dir, lang);
      if (!existsSync(langDir)) continue;
      for (const file of readdirSync(langDir).filter((f) => f.endsWith('.json'))) {
        const ns = file.slice(0, -'.json'.length);
        out[lang][ns] = {
          ...(out[lang][ns] ?? {}),
          ...(JSON.parse(readFileSync(join(langDir, file), 'utf8')) as Tree),
        };
      }
    }
  }
  return out;
}

export class DirectoriesLoader extends I18nLoader {
  constructor(private readonly dirs: string[]) {
    super();
  }

  async languages(): Promise<string[]> {
    return [...SUPPORTED_LANGUAGES];
  }

  async load(): Promise<I18nTranslation> {
    return readTranslations(this.dirs) as unknown as I18nTranslation;
  }
}
