import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SUPPORTED_LANGUAGES, type Language } from '@platform/i18n';

/**
 * The committed references (docs/openapi/<api>.<lang>.json): next to the sources in the repository,
 * copied to dist/docs/openapi by the build, so the same relative path works in both.
 */
export const REFERENCE_DIR = resolve(__dirname, '../../../../docs/openapi');

export interface ReferenceIndex {
  /** API name -> language -> the document's text, read once at start (the files are part of the build). */
  documents: Map<string, Map<Language, string>>;
  titles: Map<string, Map<Language, string>>;
}

export function readReferences(dir = REFERENCE_DIR): ReferenceIndex {
  const documents = new Map<string, Map<Language, string>>();
  const titles = new Map<string, Map<Language, string>>();
  if (!existsSync(dir)) return { documents, titles };
  for (const file of readdirSync(dir).sort()) {
    const m = /^([a-z][a-z0-9-]*)\.([a-z]{2})\.json$/.exec(file);
    if (!m || !(SUPPORTED_LANGUAGES as readonly string[]).includes(m[2])) continue;
    const [, api, lang] = m as unknown as [string, string, Language];
    const text = readFileSync(join(dir, file), 'utf8');
    const title = (JSON.parse(text) as { info: { title: string } }).info.title;
    if (!documents.has(api)) documents.set(api, new Map());
    if (!titles.has(api)) titles.set(api, new Map());
    documents.get(api)?.set(lang, text);
    titles.get(api)?.set(lang, title);
  }
  return { documents, titles };
}
