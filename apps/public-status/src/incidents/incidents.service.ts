import { Injectable } from '@nestjs/common';
import { Transactions, type Tx } from '@platform/persistence';
import { CatalogService } from '../catalog/catalog.service';
import { ProductsRepository } from '../catalog/products.repository';
import { ResourcesRepository } from '../catalog/resources.repository';
import { chainHash, GENESIS_HASH } from '../status/hash-chain';
import { publicCode } from '../status/public-code';
import { PublicStatusError, publicStatusError } from '../status/public-status.errors';
import { StateService } from '../status/state.service';
import { NotificationsService } from '../subscriptions/notifications.service';
import type { StatusResource } from '../catalog/status-resource.entity';
import type { Signal } from '../monitoring/automated-state';
import {
  INCIDENT_IMPACTS,
  type ComponentState,
  type IncidentImpact,
  type IncidentOrigin,
  type IncidentStatus,
} from '../status/states';
import type { BusinessId } from '../tenancy/business-id';
import type {
  CreateIncidentRequest,
  IncidentUpdateRequest,
  ResolveIncidentRequest,
} from './dto/incident.request';
import type { IncidentResponse } from './dto/incident.response';
import { incidentUpdateCanonical } from './incident-chain';
import type { Incident } from './incident.entity';
import { IncidentUpdatesRepository } from './incident-updates.repository';
import { IncidentsRepository } from './incidents.repository';

const RESOLVED_BODY = 'This incident has been resolved.';

/** The impact an automatic incident takes from its resource's state (Statuspage's own pairing). */
const AUTOMATIC_IMPACT: Readonly<Record<ComponentState, IncidentImpact>> = {
  operational: 'none',
  under_maintenance: 'none',
  degraded_performance: 'minor',
  partial_outage: 'major',
  major_outage: 'critical',
};
const STATE_LABEL: Readonly<Record<ComponentState, string>> = {
  operational: 'operational',
  under_maintenance: 'under maintenance',
  degraded_performance: 'degraded performance',
  partial_outage: 'partial outage',
  major_outage: 'major outage',
};
const moreSevere = (a: IncidentImpact, b: IncidentImpact): IncidentImpact =>
  INCIDENT_IMPACTS.indexOf(a) >= INCIDENT_IMPACTS.indexOf(b) ? a : b;

/**
 * Incidents and their updates. Every update is appended to the incident's hash chain in the same
 * transaction as the incident's status and any state it sets on the affected resources.
 */
@Injectable()
export class IncidentsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly incidents: IncidentsRepository,
    private readonly updates: IncidentUpdatesRepository,
    private readonly catalog: CatalogService,
    private readonly products: ProductsRepository,
    private readonly resources: ResourcesRepository,
    private readonly states: StateService,
    private readonly notifications: NotificationsService,
  ) {}

  async create(business: BusinessId, dto: CreateIncidentRequest): Promise<IncidentResponse> {
    const id = publicCode('inc');
    await this.transactions.run(async (tx) => {
      const affected = await this.catalog.resolveComponents(business, dto.components ?? [], tx);
      await this.openIn(tx, business, id, {
        ...dto,
        origin: 'staff',
        resourceIds: affected.map((r) => r.id),
      });
    });
    return this.view(business, id);
  }

  async postUpdate(business: BusinessId, id: string, dto: IncidentUpdateRequest): Promise<IncidentResponse> {
    if (dto.status === 'resolved') return this.resolve(business, id, { body: dto.body });
    await this.transactions.run(async (tx) => {
      const incident = await this.open(tx, business, id);
      const now = new Date();
      await this.append(tx, business, id, dto.status, dto.body, now);
      await this.incidents.change(business, id, { status: dto.status, updatedAt: now }, tx);
      if (dto.componentState) await this.setStates(tx, business, incident.resourceIds, dto.componentState);
      await this.notifications.incidentChanged(tx, business, id, 'updated');
    });
    return this.view(business, id);
  }

  /** Resolves it; affected resources whose state the incident set return to operational. */
  async resolve(business: BusinessId, id: string, dto: ResolveIncidentRequest): Promise<IncidentResponse> {
    await this.transactions.run(async (tx) =>
      this.resolveIn(tx, business, await this.open(tx, business, id), dto.body ?? RESOLVED_BODY),
    );
    return this.view(business, id);
  }

  /**
   * Follows an automated state change of a resource (checks or platform health, AutomatedStateService)
   * in its transaction, for resources with `automaticIncidents` (decision 0023): an outage with no open
   * automatic incident of the resource opens one; a change between bad states posts an update to it;
   * the return to operational resolves it (also when the flag was cleared meanwhile). The incident
   * does not set the resource's state, so the automated sources keep it; staff may post updates and
   * resolve it like any incident, or take the state over by setting one.
   */
  async followAutomatedState(tx: Tx, business: BusinessId, resource: StatusResource, signal: Signal) {
    const open = await this.incidents.openAutomatic(business, resource.id, tx);
    const by = signal.source === 'check' ? 'its monitoring checks' : 'the platform health reports';
    if (signal.state === 'operational') {
      for (const incident of open)
        await this.resolveIn(
          tx,
          business,
          incident,
          `${resource.name} is operational again, according to ${by}.`,
        );
      return;
    }
    const label = STATE_LABEL[signal.state];
    if (open.length) {
      const now = new Date();
      for (const incident of open) {
        await this.append(
          tx,
          business,
          incident.id,
          incident.status,
          `${resource.name}: ${label}, according to ${by}.`,
          now,
        );
        await this.incidents.change(
          business,
          incident.id,
          { updatedAt: now, impact: moreSevere(incident.impact, AUTOMATIC_IMPACT[signal.state]) },
          tx,
        );
        await this.notifications.incidentChanged(tx, business, incident.id, 'updated');
      }
      return;
    }
    if (!resource.automaticIncidents) return;
    const product = await this.products.byId(business, resource.productId, tx);
    await this.openIn(tx, business, publicCode('inc'), {
      name: `${product?.name ?? ''} ${resource.name}: ${label}`.trim(),
      impact: AUTOMATIC_IMPACT[signal.state],
      body: `${resource.name}: ${label}, according to ${by}. We are investigating.`,
      origin: 'automatic',
      resourceIds: [resource.id],
    });
  }

  private async openIn(
    tx: Tx,
    business: BusinessId,
    id: string,
    dto: Omit<CreateIncidentRequest, 'components'> & { origin: IncidentOrigin; resourceIds: string[] },
  ): Promise<void> {
    const now = new Date();
    const status = dto.status ?? 'investigating';
    await this.incidents.create(
      business,
      {
        id,
        name: dto.name,
        impact: dto.impact,
        status,
        resourceIds: dto.resourceIds,
        origin: dto.origin,
        createdAt: now,
        updatedAt: now,
        resolvedAt: null,
      },
      tx,
    );
    await this.append(tx, business, id, status, dto.body, now);
    if (dto.componentState) await this.setStates(tx, business, dto.resourceIds, dto.componentState);
    await this.notifications.incidentChanged(tx, business, id, 'created');
  }

  private async resolveIn(tx: Tx, business: BusinessId, incident: Incident, body: string): Promise<void> {
    const now = new Date();
    await this.append(tx, business, incident.id, 'resolved', body, now);
    await this.incidents.change(
      business,
      incident.id,
      { status: 'resolved', updatedAt: now, resolvedAt: now },
      tx,
    );
    for (const r of await this.resources.byIds(business, incident.resourceIds, tx))
      if (r.stateSource === 'incident')
        await this.states.change(tx, business, r.id, {
          state: 'operational',
          source: 'incident',
          note: incident.id,
        });
    await this.notifications.incidentChanged(tx, business, incident.id, 'resolved');
  }

  async list(business: BusinessId, limit = 50): Promise<IncidentResponse[]> {
    return this.views(business, await this.incidents.recent(business, limit));
  }

  async view(business: BusinessId, id: string): Promise<IncidentResponse> {
    const incident = await this.incidents.get(business, id);
    if (!incident) throw publicStatusError(PublicStatusError.INCIDENT_NOT_FOUND, { incident: id });
    return (await this.views(business, [incident]))[0];
  }

  private async views(business: BusinessId, incidents: Incident[]): Promise<IncidentResponse[]> {
    const [updates, resources, products] = await Promise.all([
      this.updates.ofIncidents(
        business,
        incidents.map((i) => i.id),
      ),
      this.resources.list(business),
      this.products.list(business),
    ]);
    const productSlug = new Map(products.map((p) => [p.id, p.slug]));
    const ref = new Map(resources.map((r) => [r.id, `${productSlug.get(r.productId)}/${r.slug}`]));
    return incidents.map((i) => ({
      id: i.id,
      name: i.name,
      impact: i.impact,
      status: i.status,
      components: i.resourceIds.map((r) => ref.get(r) ?? '').filter(Boolean),
      origin: i.origin,
      createdAt: i.createdAt.toISOString(),
      updatedAt: i.updatedAt.toISOString(),
      resolvedAt: i.resolvedAt?.toISOString() ?? null,
      updates: updates
        .filter((u) => u.incidentId === i.id)
        .reverse()
        .map((u) => ({
          seq: u.seq,
          status: u.status,
          body: u.body,
          createdAt: u.createdAt.toISOString(),
          hash: u.hash,
        })),
    }));
  }

  private async open(tx: Tx, business: BusinessId, id: string): Promise<Incident> {
    const incident = await this.incidents.lock(business, id, tx);
    if (!incident) throw publicStatusError(PublicStatusError.INCIDENT_NOT_FOUND, { incident: id });
    if (incident.status === 'resolved')
      throw publicStatusError(PublicStatusError.INCIDENT_RESOLVED, { incident: id });
    return incident;
  }

  private async append(
    tx: Tx,
    business: BusinessId,
    incidentId: string,
    status: IncidentStatus,
    body: string,
    at: Date,
  ) {
    const last = await this.updates.last(business, incidentId, tx);
    const row = { incidentId, seq: (last?.seq ?? 0) + 1, status, body, createdAt: at };
    const prevHash = last?.hash ?? GENESIS_HASH;
    await this.updates.append(
      business,
      { ...row, prevHash, hash: chainHash(prevHash, incidentUpdateCanonical(row)) },
      tx,
    );
  }

  private async setStates(tx: Tx, business: BusinessId, resourceIds: string[], state: ComponentState) {
    for (const id of resourceIds) await this.states.change(tx, business, id, { state, source: 'incident' });
  }
}
