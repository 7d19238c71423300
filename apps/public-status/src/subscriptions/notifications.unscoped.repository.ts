// Unscoped: reads only the publication views (and enqueues libs/webhooks deliveries) in the change's transaction.
import { Injectable } from '@nestjs/common';
import { txManager, type Tx } from '@platform/persistence';
import { service } from '@platform/registry';
import { enqueueWebhook } from '@platform/webhooks';
import type { IncidentImpact, IncidentStatus } from '../status/states';
import type { BusinessId } from '../tenancy/business-id';

export interface NoticeIncident {
  id: string;
  name: string;
  impact: IncidentImpact;
  status: IncidentStatus;
  resourceIds: string[];
}

export interface NoticeMaintenance {
  id: string;
  name: string;
  body: string;
  status: string;
  resourceIds: string[];
  scheduledFor: Date;
  scheduledUntil: Date;
}

export interface NoticeResource {
  id: string;
  productId: string;
  ref: string;
}

/**
 * What a notification may say, read in the transaction of the change (so it sees the change) and only
 * through the publication views: an unpublished incident, product, resource or business yields nothing,
 * and a notice names only public components.
 */
@Injectable()
export class NotificationsRepository {
  async business(tx: Tx, business: BusinessId): Promise<{ slug: string; name: string } | null> {
    const [row] = (await txManager(tx).query(`SELECT slug, name FROM public_businesses WHERE id = $1`, [
      business,
    ])) as { slug: string; name: string }[];
    return row ?? null;
  }

  async incident(tx: Tx, business: BusinessId, id: string): Promise<NoticeIncident | null> {
    const [row] = (await txManager(tx).query(
      `SELECT id, name, impact, status, resource_ids AS "resourceIds" FROM public_incidents
       WHERE business_id = $1 AND id = $2`,
      [business, id],
    )) as NoticeIncident[];
    return row ?? null;
  }

  async lastUpdate(
    tx: Tx,
    business: BusinessId,
    incidentId: string,
  ): Promise<{ seq: number; status: IncidentStatus; body: string; createdAt: Date } | null> {
    const [row] = (await txManager(tx).query(
      `SELECT seq, status, body, created_at AS "createdAt" FROM incident_updates
       WHERE business_id = $1 AND incident_id = $2 ORDER BY seq DESC LIMIT 1`,
      [business, incidentId],
    )) as { seq: number; status: IncidentStatus; body: string; createdAt: Date }[];
    return row ?? null;
  }

  async maintenance(tx: Tx, business: BusinessId, id: string): Promise<NoticeMaintenance | null> {
    const [row] = (await txManager(tx).query(
      `SELECT id, name, body, status, resource_ids AS "resourceIds", scheduled_for AS "scheduledFor",
              scheduled_until AS "scheduledUntil"
       FROM public_maintenances WHERE business_id = $1 AND id = $2`,
      [business, id],
    )) as NoticeMaintenance[];
    return row ?? null;
  }

  resources(tx: Tx, business: BusinessId): Promise<NoticeResource[]> {
    return txManager(tx).query(
      `SELECT id, product_id AS "productId", product_slug || '/' || slug AS ref FROM public_resources
       WHERE business_id = $1`,
      [business],
    ) as Promise<NoticeResource[]>;
  }

  /** libs/webhooks deliveries to these subscriptions, in the change's transaction. */
  async enqueueWebhooks(
    tx: Tx,
    business: BusinessId,
    subscriptionIds: string[],
    event: { type: string; id: string; payload: unknown },
  ): Promise<void> {
    if (!subscriptionIds.length) return;
    await enqueueWebhook(txManager(tx), service('public-status').schema, {
      tenantId: business,
      eventType: event.type,
      eventId: event.id,
      payload: event.payload,
      subscriptionIds,
    });
  }
}
