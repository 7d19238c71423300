import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import {
  LANGUAGES,
  buildEnglishReference,
  englishTexts,
  localiseReference,
  readCatalogs,
  type ApiReferenceDefinition,
} from '@platform/api-docs';

const ROOT = resolve(__dirname, '../../..');
export const REFERENCE_DIR = join(ROOT, 'docs', 'openapi');

export const referenceFile = (service: string, lang: string) =>
  join(REFERENCE_DIR, `${service}.${lang}.json`);

/**
 * Generates the service's reference in every language from the running app and compares it with the
 * committed files (`UPDATE_OPENAPI=1` rewrites them, and lists untranslated texts in
 * tmp/api-docs-missing.<service>.json for translators). Returns the files that differ.
 */
export function apiReferenceDrift(app: INestApplication, def: ApiReferenceDefinition): string[] {
  const i18n = app.get(I18nService);
  const english = buildEnglishReference(app, def);
  const catalogs = readCatalogs();
  const drifted: string[] = [];
  const missing: Record<string, string[]> = {};
  for (const lang of LANGUAGES) {
    const { doc, missing: untranslated } = localiseReference(english, def, lang, catalogs[lang], (key, l) =>
      String(i18n.t(key as never, { lang: l })),
    );
    if (untranslated.length) missing[lang] = untranslated;
    const file = referenceFile(def.service, lang);
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(file, text);
    else if (!existsSync(file) || readFileSync(file, 'utf8') !== text) drifted.push(file);
  }
  if (process.env.UPDATE_OPENAPI === '1') {
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    writeFileSync(
      join(ROOT, 'tmp', `api-docs-texts.${def.service}.json`),
      `${JSON.stringify({ texts: [...englishTexts(english)], missing }, null, 2)}\n`,
    );
  }
  return drifted;
}
