import { Injectable } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import { CatalogService } from '../catalog/catalog.service';
import { ProductsRepository } from '../catalog/products.repository';
import { ResourcesRepository } from '../catalog/resources.repository';
import { publicCode } from '../status/public-code';
import { PublicStatusError, publicStatusError } from '../status/public-status.errors';
import { StateService } from '../status/state.service';
import { NotificationsService } from '../subscriptions/notifications.service';
import type { MaintenanceStatus } from '../status/states';
import type { BusinessId } from '../tenancy/business-id';
import type { ScheduleMaintenanceRequest } from './dto/maintenance.request';
import type { MaintenanceResponse } from './dto/maintenance.response';
import type { Maintenance } from './maintenance.entity';
import { MaintenancesRepository } from './maintenances.repository';

/**
 * Scheduled maintenance: scheduled -> in_progress (affected resources enter under_maintenance) ->
 * completed (those still under this maintenance return to operational). Starting and completing are
 * explicit calls: the window is the announcement, the calls are what happened.
 */
@Injectable()
export class MaintenanceService {
  constructor(
    private readonly transactions: Transactions,
    private readonly maintenances: MaintenancesRepository,
    private readonly catalog: CatalogService,
    private readonly products: ProductsRepository,
    private readonly resources: ResourcesRepository,
    private readonly states: StateService,
    private readonly notifications: NotificationsService,
  ) {}

  async schedule(business: BusinessId, dto: ScheduleMaintenanceRequest): Promise<MaintenanceResponse> {
    const [from, until] = [new Date(dto.scheduledFor), new Date(dto.scheduledUntil)];
    if (!(from < until)) throw publicStatusError(PublicStatusError.MAINTENANCE_WINDOW_INVALID);
    const id = publicCode('mnt');
    await this.transactions.run(async (tx) => {
      const affected = await this.catalog.resolveComponents(business, dto.components ?? [], tx);
      await this.maintenances.create(
        business,
        {
          id,
          name: dto.name,
          body: dto.body ?? '',
          status: 'scheduled',
          resourceIds: affected.map((r) => r.id),
          scheduledFor: from,
          scheduledUntil: until,
          startedAt: null,
          completedAt: null,
          createdAt: new Date(),
        },
        tx,
      );
      await this.notifications.maintenanceChanged(tx, business, id, 'scheduled');
    });
    return this.view(business, id);
  }

  start(business: BusinessId, id: string): Promise<MaintenanceResponse> {
    return this.transition(business, id, 'scheduled', 'in_progress');
  }

  complete(business: BusinessId, id: string): Promise<MaintenanceResponse> {
    return this.transition(business, id, 'in_progress', 'completed');
  }

  private async transition(
    business: BusinessId,
    id: string,
    from: MaintenanceStatus,
    to: MaintenanceStatus,
  ): Promise<MaintenanceResponse> {
    await this.transactions.run(async (tx) => {
      const m = await this.maintenances.lock(business, id, tx);
      if (!m) throw publicStatusError(PublicStatusError.MAINTENANCE_NOT_FOUND, { maintenance: id });
      if (m.status !== from)
        throw publicStatusError(PublicStatusError.MAINTENANCE_TRANSITION, {
          maintenance: id,
          status: m.status,
          to,
        });
      const now = new Date();
      await this.maintenances.change(
        business,
        id,
        to === 'in_progress' ? { status: to, startedAt: now } : { status: to, completedAt: now },
        tx,
      );
      for (const r of await this.resources.byIds(business, m.resourceIds, tx)) {
        if (to === 'in_progress')
          await this.states.change(tx, business, r.id, {
            state: 'under_maintenance',
            source: 'maintenance',
            note: id,
            at: now,
          });
        else if (r.state === 'under_maintenance')
          await this.states.change(tx, business, r.id, {
            state: 'operational',
            source: 'maintenance',
            note: id,
            at: now,
          });
      }
      await this.notifications.maintenanceChanged(
        tx,
        business,
        id,
        to === 'in_progress' ? 'started' : 'completed',
      );
    });
    return this.view(business, id);
  }

  async list(business: BusinessId, limit = 50): Promise<MaintenanceResponse[]> {
    return this.views(business, await this.maintenances.recent(business, limit));
  }

  async view(business: BusinessId, id: string): Promise<MaintenanceResponse> {
    const m = await this.maintenances.get(business, id);
    if (!m) throw publicStatusError(PublicStatusError.MAINTENANCE_NOT_FOUND, { maintenance: id });
    return (await this.views(business, [m]))[0];
  }

  private async views(business: BusinessId, rows: Maintenance[]): Promise<MaintenanceResponse[]> {
    const [resources, products] = await Promise.all([
      this.resources.list(business),
      this.products.list(business),
    ]);
    const productSlug = new Map(products.map((p) => [p.id, p.slug]));
    const ref = new Map(resources.map((r) => [r.id, `${productSlug.get(r.productId)}/${r.slug}`]));
    return rows.map((m) => ({
      id: m.id,
      name: m.name,
      body: m.body,
      status: m.status,
      components: m.resourceIds.map((r) => ref.get(r) ?? '').filter(Boolean),
      scheduledFor: m.scheduledFor.toISOString(),
      scheduledUntil: m.scheduledUntil.toISOString(),
      startedAt: m.startedAt?.toISOString() ?? null,
      completedAt: m.completedAt?.toISOString() ?? null,
    }));
  }
}
