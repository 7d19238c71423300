import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readTranslations } from './directories.loader';
import { SUPPORTED_LANGUAGES } from './languages';

const ROOT = resolve(__dirname, '../../..');

/** Every directory in the repo that holds `<lang>/*.json` translations: the shared one and each app's. */
function localeDirs(): string[] {
  const found: string[] = [join(__dirname, 'locales')];
  const appsDir = join(ROOT, 'apps');
  for (const app of readdirSync(appsDir)) {
    const dir = join(appsDir, app, 'src', 'i18n');
    if (existsSync(dir) && statSync(dir).isDirectory()) found.push(dir);
  }
  return found;
}

function leaves(tree: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree as Record<string, unknown>)) {
    if (v && typeof v === 'object') for (const [kk, vv] of leaves(v, `${prefix}${k}.`)) out.set(kk, vv);
    else out.set(`${prefix}${k}`, String(v));
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe.each(localeDirs())('translations in %s', (dir) => {
  const all = readTranslations([dir]);
  const en = leaves(all.en);

  it('has English texts', () => {
    expect(en.size).toBeGreaterThan(0);
  });

  it.each(SUPPORTED_LANGUAGES.filter((l) => l !== 'en'))(
    '%s has every key that en has, with the same placeholders',
    (lang) => {
      const other = leaves(all[lang]);
      const missing = [...en.keys()].filter((k) => !other.has(k));
      expect(missing).toEqual([]);
      const extra = [...other.keys()].filter((k) => !en.has(k));
      expect(extra).toEqual([]);
      const mismatched = [...en].filter(
        ([k, text]) => placeholders(text).join() !== placeholders(other.get(k) ?? '').join(),
      );
      expect(mismatched.map(([k]) => k)).toEqual([]);
      const untranslatedEmpty = [...other].filter(([, text]) => text.trim() === '');
      expect(untranslatedEmpty).toEqual([]);
    },
  );
});
