import { Injectable } from '@nestjs/common';
import type { Tx } from '@platform/persistence';
import { ResourcesRepository } from '../catalog/resources.repository';
import type { BusinessId } from '../tenancy/business-id';
import { publicStatusError, PublicStatusError } from './public-status.errors';
import { StateHistoryRepository } from './state-history.repository';
import type { ComponentState, StateSource } from './states';

export interface StateChange {
  state: ComponentState;
  source: StateSource;
  note?: string;
  at?: Date;
}

/**
 * The one way a resource's state changes: the resource row and its history row in the caller's
 * transaction, under the resource's row lock. No outbox event: libs/messaging has no public-status
 * state contract yet (decision 0020 lists it as a gap; the subscriber step adds one).
 */
@Injectable()
export class StateService {
  constructor(
    private readonly resources: ResourcesRepository,
    private readonly history: StateHistoryRepository,
  ) {}

  /** Returns whether the state changed (setting the current state again is a no-op). */
  async change(tx: Tx, business: BusinessId, resourceId: string, c: StateChange): Promise<boolean> {
    const resource = await this.resources.lock(business, resourceId, tx);
    if (!resource) throw publicStatusError(PublicStatusError.RESOURCE_NOT_FOUND, { resource: resourceId });
    if (resource.state === c.state) return false;
    const at = c.at ?? new Date();
    await this.history.append(
      business,
      { resourceId, state: c.state, source: c.source, note: c.note ?? '', at },
      tx,
    );
    await this.resources.setState(business, resourceId, c.state, c.source, at, tx);
    return true;
  }

  /** The first history row of a new resource: it exists, operational, from now. */
  async start(tx: Tx, business: BusinessId, resourceId: string, at: Date): Promise<void> {
    await this.history.append(
      business,
      { resourceId, state: 'operational', source: 'manual', note: 'created', at },
      tx,
    );
  }
}
