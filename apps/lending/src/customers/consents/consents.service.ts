import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../../tenancy/tenant-data';
import { customerOrNotFound, lockCustomerForChange } from '../customer-lock';
import { CustomerTexts } from '../customer-texts';
import { CustomersError, customersError } from '../customers.errors';
import { CustomersRepository } from '../customers.repository';
import type { ConsentHistoryQuery, GiveConsentRequest, WithdrawConsentRequest } from '../dto/consent.request';
import type { ConsentEventResponse } from '../dto/consent.response';
import { canRecordConsent, consentStateOf } from './consent-rules';
import type { CustomerConsent } from './customer-consent.entity';
import { CustomerConsentsRepository } from './customer-consents.repository';

/**
 * Consents as an append-only history: giving and withdrawing each add an event; what stands is the
 * latest event of each type. Withdrawing stays possible after the customer is closed.
 */
@Injectable()
export class ConsentsService {
  constructor(
    private readonly data: TenantData,
    private readonly customers: CustomersRepository,
    private readonly consents: CustomerConsentsRepository,
    private readonly texts: CustomerTexts,
  ) {}

  async give(organizationId: OrganizationId, lang: Language, body: GiveConsentRequest) {
    return this.data.run(organizationId, async (tx) => {
      await lockCustomerForChange(this.customers, organizationId, body.customerId, tx);
      const latest = await this.consents.latest(organizationId, body.customerId, body.type, tx);
      if (latest?.action === 'given' && latest.textVersion === body.textVersion)
        throw customersError(
          CustomersError.CONSENT_ALREADY_GIVEN,
          { consentType: body.type, textVersion: body.textVersion },
          { consentId: latest.id },
        );
      const event = await this.consents.append(
        organizationId,
        this.event(body, 'given', body.textVersion),
        tx,
      );
      return this.view(event, lang);
    });
  }

  async withdraw(organizationId: OrganizationId, lang: Language, body: WithdrawConsentRequest) {
    return this.data.run(organizationId, async (tx) => {
      await lockCustomerForChange(this.customers, organizationId, body.customerId, tx, { allowClosed: true });
      const latest = await this.consents.latest(organizationId, body.customerId, body.type, tx);
      if (!canRecordConsent(consentStateOf(latest), 'withdrawn') || !latest)
        throw customersError(CustomersError.CONSENT_NOT_GIVEN, { consentType: body.type });
      // The withdrawal names the text version it ends.
      const event = await this.consents.append(
        organizationId,
        this.event(body, 'withdrawn', latest.textVersion),
        tx,
      );
      return this.view(event, lang);
    });
  }

  /** The latest event of each type the customer ever had. */
  async current(
    organizationId: OrganizationId,
    lang: Language,
    customerId: string,
  ): Promise<ListValue<ConsentEventResponse>> {
    const rows = await this.data.run(organizationId, async (tx) => {
      await customerOrNotFound(this.customers, organizationId, customerId, tx);
      return this.consents.current(organizationId, customerId, tx);
    });
    return { items: rows.map((r) => this.view(r, lang)), total: rows.length };
  }

  async history(
    organizationId: OrganizationId,
    lang: Language,
    q: ConsentHistoryQuery,
  ): Promise<ListValue<ConsentEventResponse>> {
    const [rows, total] = await this.data.run(organizationId, async (tx) => {
      await customerOrNotFound(this.customers, organizationId, q.CustomerId, tx);
      return this.consents.history(organizationId, q.CustomerId, q.Type, q.Offset ?? 0, q.Count ?? 20, tx);
    });
    return { items: rows.map((r) => this.view(r, lang)), total };
  }

  private event(body: WithdrawConsentRequest, action: 'given' | 'withdrawn', textVersion: string) {
    return {
      customerId: body.customerId,
      type: body.type,
      action,
      textVersion,
      channel: body.channel,
      ipAddress: body.ipAddress ?? null,
      userAgent: body.userAgent ?? null,
      evidence: body.evidence ?? null,
    };
  }

  private view(e: CustomerConsent, lang: Language): ConsentEventResponse {
    return {
      id: e.id,
      customerId: e.customerId,
      type: e.type,
      status: e.action,
      statusName: this.texts.consentStatus(e.action, lang),
      textVersion: e.textVersion,
      channel: e.channel,
      ipAddress: e.ipAddress,
      userAgent: e.userAgent,
      evidence: e.evidence,
      at: e.recordedAt.toISOString(),
    };
  }
}
