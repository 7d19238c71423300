import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../tenancy/tenant-data';
import { CustomerBankAccountsRepository } from './bank-accounts/customer-bank-accounts.repository';
import { assertDateInRange, customerOrNotFound, lockCustomerForChange, today } from './customer-lock';
import { CUSTOMER_STANDING } from './customer-standing';
import { CUSTOMER_STATUSES, CUSTOMER_TRANSITIONS } from './customer-statuses';
import { CustomerTexts } from './customer-texts';
import { bankAccountView, customerSummary, identifierView } from './customer-views';
import type { Customer, CustomerAddress, CustomerKind } from './customer.entity';
import { CustomersError, customersError } from './customers.errors';
import { CustomersRepository, EXTERNAL_ID_TAKEN, type CustomerFields } from './customers.repository';
import type {
  BusinessProfileRequest,
  ChangeCustomerStatusRequest,
  CreateCustomerRequest,
  GetCustomersRequest,
  IndividualProfileRequest,
  UpdateCustomerRequest,
} from './dto/customer.request';
import type {
  CustomerResponse,
  CustomerSummaryResponse,
  CustomerStatusResponse,
} from './dto/customer.response';
import { CustomerIdentifiersRepository } from './identifiers/customer-identifiers.repository';
import { normaliseIdentifier } from './identifiers/identifier-rules';

const BIRTH_DATE_MIN = '1900-01-01';
const REGISTRATION_DATE_MIN = '1800-01-01';

type ProfileFields = IndividualProfileRequest & BusinessProfileRequest;
/** Profile fields as sent: on update, `null` clears an optional one. */
type Profile = { [K in keyof ProfileFields]?: ProfileFields[K] | null };

/** The fields that were sent: DTO instances carry every declared field, unsent ones undefined. */
function sent<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** `first middle last` of an individual, the legal name of a business. */
function displayNameOf(kind: CustomerKind, p: Profile): string {
  return kind === 'individual'
    ? [p.firstName, p.middleName, p.lastName].filter(Boolean).join(' ')
    : (p.legalName ?? '');
}

/** The profile object of the other kind was sent: refused rather than silently dropped. */
function assertProfileOfKind(kind: CustomerKind, body: { individual?: unknown; business?: unknown }): void {
  const other = kind === 'individual' ? 'business' : 'individual';
  if (body[other] !== undefined)
    throw customersError(
      CustomersError.PROFILE_KIND_MISMATCH,
      { kind, expected: kind, given: other },
      { field: other },
    );
}

function assertProfileDates(p: Profile | undefined): void {
  assertDateInRange('birthDate', p?.birthDate, BIRTH_DATE_MIN, today());
  assertDateInRange('registrationDate', p?.registrationDate, REGISTRATION_DATE_MIN, today());
}

/** Profile, status and search of customers (the other records have their own services). */
@Injectable()
export class CustomersService {
  constructor(
    private readonly data: TenantData,
    private readonly customers: CustomersRepository,
    private readonly identifiers: CustomerIdentifiersRepository,
    private readonly bankAccounts: CustomerBankAccountsRepository,
    private readonly texts: CustomerTexts,
  ) {}

  async create(organizationId: OrganizationId, lang: Language, body: CreateCustomerRequest) {
    assertProfileOfKind(body.kind, body);
    const profile: Profile = sent<Profile>(body.kind === 'individual' ? body.individual : body.business);
    assertProfileDates(profile);
    const fields: CustomerFields = {
      kind: body.kind,
      status: 'active',
      externalId: body.externalId ?? null,
      displayName: displayNameOf(body.kind, profile),
      ...profile,
      email: body.email ?? null,
      phone: body.phone ?? null,
      preferredLanguage: body.preferredLanguage ?? null,
      address: body.address ? (sent(body.address) as CustomerAddress) : null,
    };
    const created = await this.data.run(organizationId, async (tx) => {
      const row = await this.customers.create(organizationId, fields, tx);
      if (row === EXTERNAL_ID_TAKEN)
        throw customersError(CustomersError.EXTERNAL_ID_TAKEN, { externalId: body.externalId });
      return row;
    });
    return { ...this.summary(created, lang), identifiers: [], bankAccounts: [] };
  }

  async update(
    organizationId: OrganizationId,
    lang: Language,
    body: UpdateCustomerRequest,
  ): Promise<CustomerResponse> {
    return this.data.run(organizationId, async (tx) => {
      const current = await lockCustomerForChange(this.customers, organizationId, body.customerId, tx);
      this.assertVersion(current, body.version);
      assertProfileOfKind(current.kind, body);
      const changes: Profile = sent<Profile>(current.kind === 'individual' ? body.individual : body.business);
      assertProfileDates(changes);
      const merged = { ...(current as Profile), ...changes };
      const set = {
        ...changes,
        displayName: displayNameOf(current.kind, merged),
        ...(body.externalId !== undefined ? { externalId: body.externalId } : {}),
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(body.phone !== undefined ? { phone: body.phone } : {}),
        ...(body.preferredLanguage !== undefined ? { preferredLanguage: body.preferredLanguage } : {}),
        ...(body.address !== undefined
          ? { address: body.address ? (sent(body.address) as CustomerAddress) : null }
          : {}),
      };
      const row = await this.customers.change(organizationId, current.id, current.version, set, tx);
      if (row === EXTERNAL_ID_TAKEN)
        throw customersError(CustomersError.EXTERNAL_ID_TAKEN, { externalId: body.externalId });
      return this.full(organizationId, row as Customer, lang, tx);
    });
  }

  async changeStatus(
    organizationId: OrganizationId,
    lang: Language,
    body: ChangeCustomerStatusRequest,
  ): Promise<CustomerResponse> {
    return this.data.run(organizationId, async (tx) => {
      const current = await lockCustomerForChange(this.customers, organizationId, body.customerId, tx, {
        allowClosed: true,
      });
      this.assertVersion(current, body.version);
      const allowed = CUSTOMER_TRANSITIONS[current.status];
      if (!allowed.includes(body.status))
        throw customersError(
          CustomersError.STATUS_TRANSITION,
          {
            from: this.texts.customerStatus(current.status, lang),
            to: this.texts.customerStatus(body.status, lang),
          },
          { from: current.status, to: body.status, allowed: [...allowed] },
        );
      const row = await this.customers.change(
        organizationId,
        current.id,
        current.version,
        { status: body.status, statusReason: body.reason ?? null, statusChangedAt: () => 'now()' },
        tx,
      );
      return this.full(organizationId, row as Customer, lang, tx);
    });
  }

  async get(organizationId: OrganizationId, lang: Language, customerId: string): Promise<CustomerResponse> {
    return this.data.run(organizationId, async (tx) =>
      this.full(
        organizationId,
        await customerOrNotFound(this.customers, organizationId, customerId, tx),
        lang,
        tx,
      ),
    );
  }

  async page(
    organizationId: OrganizationId,
    lang: Language,
    q: GetCustomersRequest,
  ): Promise<ListValue<CustomerSummaryResponse>> {
    const text = q.Search?.trim() || undefined;
    const identifier = text ? normaliseIdentifier(text) : '';
    const [rows, total] = await this.data.run(organizationId, (tx) =>
      this.customers.search(
        organizationId,
        {
          text,
          identifier: /^[A-Z0-9]{4,}$/.test(identifier) ? identifier : undefined,
          kind: q.Kind,
          status: q.Status,
        },
        q.Offset ?? 0,
        q.Count ?? 20,
        tx,
      ),
    );
    return { items: rows.map((r) => this.summary(r, lang)), total };
  }

  statuses(lang: Language): CustomerStatusResponse[] {
    const named = (status: (typeof CUSTOMER_STATUSES)[number]) => ({
      status,
      statusName: this.texts.customerStatus(status, lang),
    });
    return CUSTOMER_STATUSES.map((s) => ({
      ...named(s),
      next: CUSTOMER_TRANSITIONS[s].map(named),
      allows: [...CUSTOMER_STANDING[s]],
    }));
  }

  private assertVersion(current: Customer, expected: number | undefined): void {
    if (expected !== undefined && expected !== current.version)
      throw customersError(
        CustomersError.VERSION_CONFLICT,
        { expected, current: current.version },
        { currentVersion: current.version },
      );
  }

  private summary(c: Customer, lang: Language): CustomerSummaryResponse {
    return customerSummary(c, this.texts, lang);
  }

  private async full(organizationId: OrganizationId, c: Customer, lang: Language, tx: Tx) {
    const [identifiers, bankAccounts] = [
      await this.identifiers.ofCustomer(organizationId, c.id, tx),
      await this.bankAccounts.ofCustomer(organizationId, c.id, tx),
    ];
    return {
      ...this.summary(c, lang),
      identifiers: identifiers.map(identifierView),
      bankAccounts: bankAccounts.map(bankAccountView),
    };
  }
}
