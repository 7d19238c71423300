import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SUPPORTED_LANGUAGES } from '@platform/i18n';
import { readCatalogs } from './catalog';
import { ACCESS_TEXT, englishTexts, visitTexts } from './reference';

const REFERENCE_DIR = resolve(__dirname, '../../../docs/openapi');

/**
 * Texts that read the same in every language: names and codes only. Everything else a reader sees
 * is translated; a value equal to its English key is a copy, not a translation.
 */
const SAME_IN_EVERY_LANGUAGE = new Set<string>([]);

type Json = Record<string, unknown>;
const read = (file: string) => JSON.parse(readFileSync(join(REFERENCE_DIR, file), 'utf8')) as Json;
const files = readdirSync(REFERENCE_DIR).filter((f) => f.endsWith('.json'));
const services = [...new Set(files.map((f) => f.split('.')[0]))];
const codeSpans = (text: string) => [...text.matchAll(/`[^`]+`/g)].map((m) => m[0]).sort();

/** The document with every human text and localised error message blanked: what must not differ. */
function structure(doc: Json): Json {
  const copy = JSON.parse(JSON.stringify(doc)) as Json;
  visitTexts(copy, (holder, key) => (holder[key] = ''));
  return JSON.parse(JSON.stringify(copy).replace(/"error":"(?:[^"\\]|\\.)*"/g, '"error":""')) as Json;
}

/**
 * The translation units of a finished English document: its paragraphs, except that the access line
 * ("Required scopes (all of): `Push`") is translated as its label and, for an exemption, its reason;
 * the scope names after the label are codes.
 */
function translationUnits(doc: Json): string[] {
  const labels = [ACCESS_TEXT.allOf, ACCESS_TEXT.anyOf, ACCESS_TEXT.exempt];
  return [...englishTexts(doc)].flatMap((p) => {
    const label = labels.find((l) => p.startsWith(`${l}: `));
    if (!label) return [p];
    const rest = p.slice(label.length + 2);
    return /^`[^`]+`(, `[^`]+`)*$/.test(rest) ? [label] : [label, rest];
  });
}

describe('API reference translations (libs/i18n/src/api-docs)', () => {
  const english = new Set(services.flatMap((s) => translationUnits(read(`${s}.en.json`))));
  const catalogs = readCatalogs();

  it('covers the four services in six languages', () => {
    expect(services.sort()).toEqual(['calendar', 'lending', 'public-status', 'verification']);
    for (const s of services)
      for (const lang of SUPPORTED_LANGUAGES) expect(files).toContain(`${s}.${lang}.json`);
  });

  it.each(SUPPORTED_LANGUAGES.filter((l) => l !== 'en'))(
    '%s translates every English text of the reference, and nothing else',
    (lang) => {
      const catalog = catalogs[lang];
      expect([...english].filter((t) => !(t in catalog))).toEqual([]);
      expect(Object.keys(catalog).filter((t) => !english.has(t))).toEqual([]);
      expect(Object.entries(catalog).filter(([, v]) => !v.trim())).toEqual([]);
    },
  );

  it.each(SUPPORTED_LANGUAGES.filter((l) => l !== 'en'))(
    '%s: translations are not English copies, and keep every `code` span',
    (lang) => {
      const catalog = catalogs[lang];
      const copies = Object.entries(catalog).filter(([en, v]) => v === en && !SAME_IN_EVERY_LANGUAGE.has(en));
      expect(copies.map(([en]) => en)).toEqual([]);
      const lostCode = Object.entries(catalog).filter(
        ([en, v]) => codeSpans(en).join() !== codeSpans(v).join(),
      );
      expect(lostCode.map(([en]) => en)).toEqual([]);
    },
  );

  it.each(services)('%s: paths, operationIds and schemas are identical in every language', (service) => {
    const en = structure(read(`${service}.en.json`));
    for (const lang of SUPPORTED_LANGUAGES) expect(structure(read(`${service}.${lang}.json`))).toEqual(en);
  });

  it.each(services)('%s: every operation has a summary and every parameter a description', (service) => {
    const doc = read(`${service}.en.json`) as { paths: Record<string, Record<string, Json>> };
    const bare = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => [
        ...(op.summary ? [] : [`${String(op.operationId)}: summary`]),
        ...((op.parameters ?? []) as Json[])
          .filter((p) => !p.description)
          .map((p) => `${String(op.operationId)}: ${String(p.name)}`),
      ]),
    );
    expect(bare).toEqual([]);
  });
});
