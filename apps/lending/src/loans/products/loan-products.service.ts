import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { ConsentType } from '../../customers/consents/consent-rules';
import { TenantData } from '../../tenancy/tenant-data';
import { DEFAULT_ALLOCATION_ORDER, rateWithinLimit } from '../loan-terms';
import { LoanTexts } from '../loan-texts';
import { LoanError, loanError } from '../loans.errors';
import {
  completeAllocationOrder,
  type DayCount,
  type DebtComponent,
  type Frequency,
  type InterestMethod,
  type Rounding,
  type ScheduleType,
} from '../math';
import type { CreateLoanProductRequest, UpdateLoanProductRequest } from './dto/loan-product.request';
import type { GetLoanProductsRequest } from './dto/get-loan-products.request';
import type { LoanProductResponse } from './dto/loan-product.response';
import type { LoanProduct } from './loan-product.entity';
import {
  LoanProductsRepository,
  PRODUCT_CODE_TAKEN,
  type LoanProductChange,
  type NewLoanProduct,
} from './loan-products.repository';

/** What makes a product's terms contradict each other (texts: loans.json `productProblems`). */
export type ProductProblem =
  | 'AMOUNT_RANGE'
  | 'TERM_RANGE'
  | 'GRACE'
  | 'ALLOCATION_ORDER'
  | 'RATE_TOO_HIGH'
  | 'FEE_TOO_HIGH'
  | 'REQUIRED_CONSENTS';

/** The first contradiction in a product's terms, with the field it concerns, or null. */
export function productProblem(p: NewLoanProduct): { problem: ProductProblem; field: string } | null {
  if (p.minAmount > p.maxAmount) return { problem: 'AMOUNT_RANGE', field: 'minAmount' };
  if (p.minTerm > p.maxTerm) return { problem: 'TERM_RANGE', field: 'minTerm' };
  if (p.graceInterestOnly + p.gracePrincipal > p.minTerm - 1)
    return { problem: 'GRACE', field: 'graceInterestOnly' };
  if (completeAllocationOrder(p.allocationOrder) === null)
    return { problem: 'ALLOCATION_ORDER', field: 'allocationOrder' };
  for (const field of ['annualRate', 'penaltyAnnualRate'] as const)
    if (!rateWithinLimit(p[field])) return { problem: 'RATE_TOO_HIGH', field };
  // A fee of more than the amount lent is a typo, and keeps fee + amount far inside safe integers.
  const [whole, fraction = ''] = p.originationFeePercent.split('.');
  if (Number(whole) > 100 || (Number(whole) === 100 && /[1-9]/.test(fraction)))
    return { problem: 'FEE_TOO_HIGH', field: 'originationFeePercent' };
  if (new Set(p.requiredConsents).size !== p.requiredConsents.length)
    return { problem: 'REQUIRED_CONSENTS', field: 'requiredConsents' };
  return null;
}

/** Terms as stored, once checked: an allocation order named in part is completed in the default order. */
function stored<T extends { allocationOrder?: DebtComponent[] }>(terms: T): T {
  const whole = terms.allocationOrder && completeAllocationOrder(terms.allocationOrder);
  return whole ? { ...terms, allocationOrder: whole } : terms;
}

/** Loan products: create, change, read, list (docs/lending/loans.md, "Products"). */
@Injectable()
export class LoanProductsService {
  constructor(
    private readonly data: TenantData,
    private readonly products: LoanProductsRepository,
    private readonly texts: LoanTexts,
  ) {}

  async create(
    organizationId: OrganizationId,
    dto: CreateLoanProductRequest,
    lang: Language,
  ): Promise<LoanProductResponse> {
    const row: NewLoanProduct = {
      code: dto.code,
      name: dto.name,
      currency: dto.currency,
      minAmount: dto.minAmount,
      maxAmount: dto.maxAmount,
      minTerm: dto.minTerm,
      maxTerm: dto.maxTerm,
      annualRate: dto.annualRate,
      frequency: dto.frequency as Frequency,
      scheduleType: dto.scheduleType as ScheduleType,
      dayCount: dto.dayCount as DayCount,
      interestMethod: (dto.interestMethod ?? 'periodic') as InterestMethod,
      graceInterestOnly: dto.graceInterestOnly ?? 0,
      gracePrincipal: dto.gracePrincipal ?? 0,
      originationFee: dto.originationFee ?? 0,
      originationFeePercent: dto.originationFeePercent ?? '0',
      penaltyAnnualRate: dto.penaltyAnnualRate ?? '0',
      penaltyGraceDays: dto.penaltyGraceDays ?? 0,
      allocationOrder: (dto.allocationOrder ?? [
        ...DEFAULT_ALLOCATION_ORDER,
      ]) as NewLoanProduct['allocationOrder'],
      rounding: (dto.rounding ?? 'half-up') as Rounding,
      requiredConsents: (dto.requiredConsents ?? []) as ConsentType[],
      active: dto.active ?? true,
    };
    this.check(row, lang);
    const id = await this.data.run(organizationId, async (tx) => {
      const created = await this.products.create(organizationId, stored(row), tx);
      if (created === PRODUCT_CODE_TAKEN) throw loanError(LoanError.PRODUCT_CODE_TAKEN, { code: dto.code });
      return created;
    });
    return this.get(organizationId, id);
  }

  async update(organizationId: OrganizationId, dto: UpdateLoanProductRequest, lang: Language) {
    await this.data.run(organizationId, async (tx) => {
      const current = await this.products.lock(organizationId, dto.productId, tx);
      if (!current) throw loanError(LoanError.PRODUCT_NOT_FOUND, { productId: dto.productId });
      if (dto.version !== undefined && dto.version !== current.version)
        throw loanError(LoanError.PRODUCT_VERSION_CONFLICT, {}, { version: current.version });
      const { productId: _id, version: _v, ...fields } = dto;
      const set = Object.fromEntries(
        Object.entries(fields).filter(([, v]) => v !== undefined),
      ) as LoanProductChange;
      this.check({ ...this.termsOf(current), ...set }, lang);
      await this.products.change(organizationId, current.id, stored(set), tx);
    });
    return this.get(organizationId, dto.productId);
  }

  async get(organizationId: OrganizationId, id: string): Promise<LoanProductResponse> {
    return view(await this.data.run(organizationId, (tx) => this.byIdOrFail(organizationId, id, tx)));
  }

  async page(
    organizationId: OrganizationId,
    q: GetLoanProductsRequest,
  ): Promise<ListValue<LoanProductResponse>> {
    const [rows, total] = await this.data.run(organizationId, (tx) =>
      this.products.pageOf(
        organizationId,
        { active: q.Active === undefined ? undefined : q.Active === 'true', currency: q.Currency },
        q.Offset ?? 0,
        q.Count ?? 20,
        tx,
      ),
    );
    return { items: rows.map(view), total };
  }

  async byIdOrFail(organizationId: OrganizationId, id: string, tx: Tx): Promise<LoanProduct> {
    const product = await this.products.byId(organizationId, id, tx);
    if (!product) throw loanError(LoanError.PRODUCT_NOT_FOUND, { productId: id });
    return product;
  }

  private termsOf(p: LoanProduct): NewLoanProduct {
    const { id: _id, organizationId: _o, version: _v, createdAt: _c, updatedAt: _u, ...terms } = p;
    return terms;
  }

  private check(p: NewLoanProduct, lang: Language): void {
    const found = productProblem(p);
    if (found)
      throw loanError(
        LoanError.PRODUCT_INVALID,
        { problem: this.texts.name('productProblems', found.problem, lang) },
        { field: found.field, problem: found.problem },
      );
  }
}

export function view(p: LoanProduct): LoanProductResponse {
  return {
    id: p.id,
    code: p.code,
    name: p.name,
    currency: p.currency,
    minAmount: p.minAmount,
    maxAmount: p.maxAmount,
    minTerm: p.minTerm,
    maxTerm: p.maxTerm,
    annualRate: p.annualRate,
    frequency: p.frequency,
    scheduleType: p.scheduleType,
    dayCount: p.dayCount,
    interestMethod: p.interestMethod,
    graceInterestOnly: p.graceInterestOnly,
    gracePrincipal: p.gracePrincipal,
    originationFee: p.originationFee,
    originationFeePercent: p.originationFeePercent,
    penaltyAnnualRate: p.penaltyAnnualRate,
    penaltyGraceDays: p.penaltyGraceDays,
    allocationOrder: p.allocationOrder,
    rounding: p.rounding,
    requiredConsents: p.requiredConsents,
    active: p.active,
    version: p.version,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
