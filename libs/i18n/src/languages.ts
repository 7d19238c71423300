import type { IncomingHttpHeaders } from 'node:http';

export const SUPPORTED_LANGUAGES = ['en', 'ru', 'kk', 'uz', 'tr', 'es'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * Each language's own name, as a language switcher shows it (never translated: a reader looks for
 * their own language's name, not its English one).
 */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = Object.freeze({
  en: 'English',
  ru: 'Русский',
  kk: 'Қазақша',
  uz: 'Oʻzbekcha',
  tr: 'Türkçe',
  es: 'Español',
});

function match(tag: string): Language | undefined {
  const base = tag.trim().toLowerCase().split(/[-_]/)[0];
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(base) ? (base as Language) : undefined;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Language of a request: `Language-Code`, then `Accept-Language` (by q-weight), then English.
 * An unsupported `Language-Code` falls through to `Accept-Language` rather than failing the request.
 */
export function resolveLanguage(headers: IncomingHttpHeaders): Language {
  const explicit = header(headers, 'language-code');
  if (explicit) {
    const m = match(explicit);
    if (m) return m;
  }
  const accept = header(headers, 'accept-language');
  if (accept) {
    const ranked = accept
      .split(',')
      .map((part, index) => {
        const [tag, ...params] = part.split(';');
        const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
        return { tag: tag.trim(), q: q ? Number(q.slice(2)) || 0 : 1, index };
      })
      .filter((x) => x.tag && x.q > 0)
      .sort((a, b) => b.q - a.q || a.index - b.index);
    for (const { tag } of ranked) {
      const m = match(tag);
      if (m) return m;
    }
  }
  return DEFAULT_LANGUAGE;
}
