import type { I18nService } from 'nestjs-i18n';
import { SUPPORTED_LANGUAGES, type Language } from '@platform/i18n';
import type { ReportText } from './report-pdf';

export const isLanguage = (v: unknown): v is Language =>
  typeof v === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(v);

/**
 * The texts of one section of `reports.json` in one language. A value the texts do not know (a flag
 * severity or an applicant type added later) shows as it is rather than as its key.
 */
export function reportTexts(i18n: I18nService, section: 'pdf' | 'page', lang: Language): ReportText {
  return (key, args) => {
    const full = `reports.${section}.${key}`;
    const text = String(i18n.translate(full as never, { lang, args }));
    return text === full ? key.slice(key.lastIndexOf('.') + 1) : text;
  };
}
