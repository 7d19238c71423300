import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import type { Language } from '@platform/i18n';

type Dictionary =
  | 'statuses'
  | 'components'
  | 'accounts'
  | 'instalmentStatuses'
  | 'transactionKinds'
  | 'productProblems'
  | 'scheduleChangeProblems'
  | 'rules';

/**
 * The loans area's localised names (apps/lending/src/i18n/<lang>/loans.json), in the request's
 * language. An unknown code reads as itself rather than failing the answer.
 */
@Injectable()
export class LoanTexts {
  constructor(private readonly i18n: I18nService) {}

  name(dictionary: Dictionary, code: string, lang: Language): string {
    const key = `loans.${dictionary}.${code}`;
    const text = this.i18n.translate(key, { lang });
    return typeof text === 'string' && text !== key ? text : code;
  }

  status(code: string, lang: Language): string {
    return this.name('statuses', code, lang);
  }

  /** A text with `{placeholders}` (the allocation rule's sentence). */
  format(dictionary: Dictionary, code: string, args: Record<string, unknown>, lang: Language): string {
    const key = `loans.${dictionary}.${code}`;
    const text = this.i18n.translate(key, { lang, args });
    return typeof text === 'string' && text !== key ? text : code;
  }
}
