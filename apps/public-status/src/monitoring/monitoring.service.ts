import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Transactions } from '@platform/persistence';
import { assertPublicUrl, PublicTargetError } from '@platform/network';
import { CatalogService } from '../catalog/catalog.service';
import { ProductsRepository } from '../catalog/products.repository';
import { ResourcesRepository } from '../catalog/resources.repository';
import type { BusinessId } from '../tenancy/business-id';
import { AutomatedStateService } from './automated-state.service';
import { stateOfCheck } from './check-outcome';
import { CheckRunnerService } from './check-runner.service';
import type { CheckRequest } from './dto/check.request';
import type { CheckResponse, CheckResultResponse } from './dto/check.response';
import { MonitoringError, monitoringError } from './monitoring.errors';
import {
  MonitoringChecksRepository,
  type CheckRow,
  type CheckSettings,
} from './monitoring-checks.repository';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `chk_` + 12 base32 characters, like incidents' and maintenances' public ids. */
function checkCode(): string {
  let out = '';
  for (const b of randomBytes(12)) out += ALPHABET[b & 31];
  return `chk_${out}`;
}

/** Monitoring checks as staff manage them; runs are CheckRunnerService's. */
@Injectable()
export class MonitoringService {
  constructor(
    private readonly transactions: Transactions,
    private readonly checks: MonitoringChecksRepository,
    private readonly catalog: CatalogService,
    private readonly products: ProductsRepository,
    private readonly resources: ResourcesRepository,
    private readonly automated: AutomatedStateService,
    private readonly runner: CheckRunnerService,
  ) {}

  async create(business: BusinessId, dto: CheckRequest): Promise<CheckResponse> {
    const id = checkCode();
    const settings = await this.settings(business, dto);
    await this.checks.create(business, id, settings);
    return this.view(business, id);
  }

  async replace(business: BusinessId, id: string, dto: CheckRequest): Promise<CheckResponse> {
    const settings = await this.settings(business, dto);
    await this.transactions.run(async (tx) => {
      const before = await this.checks.get(business, id, tx);
      if (!before) throw monitoringError(MonitoringError.CHECK_NOT_FOUND, { check: id });
      await this.checks.replace(business, id, settings, tx);
      // The replaced check starts unsettled: what it said no longer holds its old resource down.
      await this.automated.reconcile(tx, business, before.resourceId, 'check');
    });
    return this.view(business, id);
  }

  async remove(business: BusinessId, id: string): Promise<CheckResponse> {
    const view = await this.view(business, id);
    await this.transactions.run(async (tx) => {
      const gone = await this.checks.remove(business, id, tx);
      if (!gone) throw monitoringError(MonitoringError.CHECK_NOT_FOUND, { check: id });
      await this.automated.reconcile(tx, business, gone.resourceId, 'check');
    });
    return view;
  }

  async list(business: BusinessId): Promise<CheckResponse[]> {
    return this.views(business, await this.checks.list(business));
  }

  async view(business: BusinessId, id: string): Promise<CheckResponse> {
    const row = await this.checks.get(business, id);
    if (!row) throw monitoringError(MonitoringError.CHECK_NOT_FOUND, { check: id });
    return (await this.views(business, [row]))[0];
  }

  async results(business: BusinessId, id: string, limit: number): Promise<CheckResultResponse[]> {
    if (!(await this.checks.get(business, id)))
      throw monitoringError(MonitoringError.CHECK_NOT_FOUND, { check: id });
    return (await this.checks.results(business, id, limit)).map((r) => ({
      at: new Date(r.at).toISOString(),
      outcome: r.outcome,
      statusCode: r.statusCode,
      error: r.error,
      latencyMs: r.latencyMs,
    }));
  }

  private async settings(business: BusinessId, dto: CheckRequest): Promise<CheckSettings> {
    const intervalS = dto.intervalSeconds ?? 60;
    const timeoutMs = dto.timeoutMs ?? Math.min(10_000, intervalS * 1000 - 1000);
    if (timeoutMs >= intervalS * 1000)
      throw monitoringError(MonitoringError.CHECK_TIMING_INVALID, { intervalSeconds: intervalS });
    const expectStatusMin = dto.expectStatusMin ?? 200;
    const expectStatusMax =
      dto.expectStatusMax ?? (dto.expectStatusMin === undefined ? 299 : expectStatusMin);
    if (expectStatusMax < expectStatusMin) throw monitoringError(MonitoringError.CHECK_STATUS_RANGE_INVALID);
    const url = await this.checkedUrl(dto.url);
    const [product, resource] = dto.component.split('/');
    const r = await this.catalog.resource(business, product, resource);
    const failureThreshold = dto.failureThreshold ?? 3;
    return {
      resourceId: r.id,
      name: dto.name,
      url,
      method: dto.method ?? 'GET',
      intervalS,
      timeoutMs,
      expectStatusMin,
      expectStatusMax,
      bodyContains: dto.bodyContains ?? null,
      failureThreshold,
      recoveryThreshold: dto.recoveryThreshold ?? failureThreshold,
      failureState: dto.failureState ?? 'major_outage',
      slowMs: dto.slowMs ?? null,
      enabled: dto.enabled ?? true,
    };
  }

  /** The SSRF guard at creation (runs check again after each resolution); stores the normalised URL. */
  private async checkedUrl(raw: string): Promise<string> {
    try {
      return await assertPublicUrl(raw, { policy: this.runner.targetPolicy() });
    } catch (err) {
      if (err instanceof PublicTargetError)
        throw monitoringError(MonitoringError.CHECK_TARGET_REFUSED, { reason: err.reason });
      throw err;
    }
  }

  private async views(business: BusinessId, rows: CheckRow[]): Promise<CheckResponse[]> {
    const [resources, products] = await Promise.all([
      this.resources.list(business),
      this.products.list(business),
    ]);
    const productSlug = new Map(products.map((p) => [p.id, p.slug]));
    const ref = new Map(resources.map((r) => [r.id, `${productSlug.get(r.productId)}/${r.slug}`]));
    return rows.map((c) => ({
      id: c.id,
      component: ref.get(c.resourceId) ?? '',
      name: c.name,
      url: c.url,
      method: c.method,
      intervalSeconds: c.intervalS,
      timeoutMs: c.timeoutMs,
      expectStatusMin: c.expectStatusMin,
      expectStatusMax: c.expectStatusMax,
      bodyContains: c.bodyContains,
      failureThreshold: c.failureThreshold,
      recoveryThreshold: c.recoveryThreshold,
      failureState: c.failureState,
      slowMs: c.slowMs,
      enabled: c.enabled,
      status: c.status,
      wants: stateOfCheck(c.status, c.failureState),
      nextRunAt: new Date(c.nextRunAt).toISOString(),
      lastRunAt: c.lastRunAt ? new Date(c.lastRunAt).toISOString() : null,
    }));
  }
}
