import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import type { Language } from '@platform/i18n';
import type { ConsentAction, ConsentState } from './consents/consent-rules';
import type { CustomerStatus, DocumentStatus } from './customer-statuses';

/** Localised names of the area's statuses (i18n/<lang>/customers.json, `statuses`). */
@Injectable()
export class CustomerTexts {
  constructor(private readonly i18n: I18nService) {}

  customerStatus(status: CustomerStatus, lang: Language): string {
    return this.t(`customers.statuses.customer.${status}`, lang);
  }

  documentStatus(status: DocumentStatus, lang: Language): string {
    return this.t(`customers.statuses.document.${status}`, lang);
  }

  consentStatus(action: ConsentAction, lang: Language): string {
    return this.t(`customers.statuses.consent.${action}`, lang);
  }

  /** Where a consent stands: `none` (never given), given or withdrawn. */
  consentState(state: ConsentState, lang: Language): string {
    return this.t(`customers.statuses.consent.${state}`, lang);
  }

  private t(key: string, lang: Language): string {
    return String(this.i18n.translate(key, { lang }));
  }
}
