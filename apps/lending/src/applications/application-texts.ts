import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import type { Language } from '@platform/i18n';

type Dictionary = 'statuses' | 'checkSteps' | 'checkStatuses' | 'decisionOutcomes' | 'decisionReasons';

/**
 * The area's localised names (apps/lending/src/i18n/<lang>/applications.json), in the request's
 * language. An unknown code (a legacy row's status) reads as itself rather than failing the answer.
 */
@Injectable()
export class ApplicationTexts {
  constructor(private readonly i18n: I18nService) {}

  name(dictionary: Dictionary, code: string, lang: Language): string {
    const key = `applications.${dictionary}.${code}`;
    const text = this.i18n.translate(key, { lang });
    return typeof text === 'string' && text !== key ? text : code;
  }

  status(code: string, lang: Language): string {
    return this.name('statuses', code, lang);
  }
}
