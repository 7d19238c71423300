import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLAG_SEVERITIES } from '../summary/summary-types';

const LANGUAGES = ['en', 'ru', 'kk', 'uz', 'tr', 'es'];
const texts = (lang: string) =>
  JSON.parse(readFileSync(join(__dirname, '..', 'i18n', lang, 'reports.json'), 'utf8')) as {
    pdf: { severities: Record<string, string> };
  };

describe('report texts', () => {
  it.each(LANGUAGES)('%s names exactly the severities a flag can have', (lang) => {
    const names = texts(lang).pdf.severities;
    expect(Object.keys(names).sort()).toEqual([...FLAG_SEVERITIES].sort());
    if (lang !== 'en')
      for (const s of FLAG_SEVERITIES) expect([s, names[s]]).not.toEqual([s, texts('en').pdf.severities[s]]);
  });

  it.each(LANGUAGES)('%s messages hold no braces that are not placeholders of the message', (lang) => {
    const raw = readFileSync(join(__dirname, '..', 'i18n', lang, 'reports.json'), 'utf8');
    // nestjs-i18n reads `{ name }` as a placeholder: a literal brace in a message vanishes.
    expect(raw.match(/\{\s+\w+\s+\}/g) ?? []).toEqual([]);
  });
});
