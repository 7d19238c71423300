import { Injectable } from '@nestjs/common';
import type { Tx } from '@platform/persistence';
import { PublicStatusConfig } from '../config/public-status.config';
import type { BusinessId } from '../tenancy/business-id';
import type { IncidentEvent, MailNotice, MaintenanceEvent } from './mail-texts';
import { NotificationsRepository, type NoticeResource } from './notifications.unscoped.repository';
import { SubscribersRepository } from './subscribers.unscoped.repository';

/**
 * Subscriber notifications, written in the transaction of the incident or maintenance change (the
 * outbox rule): a mail_outbox row per confirmed email subscriber and a libs/webhooks delivery per
 * webhook subscriber, both only for subscribers of the affected public products (or of the whole
 * business). Everything is read through the publication views in that transaction, so something
 * unpublished produces no notification and is never named in one.
 *
 * A mail row holds the notice as data, not text: the worker renders it in the subscriber's language
 * when it sends (decision 0024, "Languages"), so nothing here depends on the i18n catalogs (the admin
 * CLI changes incidents too, without them). Webhook payloads are machine data, the same for everyone.
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly notices: NotificationsRepository,
    private readonly subscribers: SubscribersRepository,
    private readonly config: PublicStatusConfig,
  ) {}

  async incidentChanged(tx: Tx, business: BusinessId, id: string, event: IncidentEvent): Promise<void> {
    const b = await this.notices.business(tx, business);
    const incident = b && (await this.notices.incident(tx, business, id));
    const update = incident && (await this.notices.lastUpdate(tx, business, id));
    if (!b || !incident || !update) return;
    const { productIds, refs } = this.affected(
      await this.notices.resources(tx, business),
      incident.resourceIds,
    );
    const link = this.pageLink(b.slug, id);
    await this.send(tx, business, productIds, {
      eventId: `incident:${id}:${update.seq}`,
      webhookType: `incident.${event}`,
      headline: `[${b.name}] ${incident.name}`,
      notice: {
        type: 'incident',
        business: b.name,
        incident: incident.name,
        status: update.status,
        impact: incident.impact,
        components: refs,
        body: update.body,
        url: link,
      },
      payload: {
        business: b.slug,
        incident: {
          id,
          name: incident.name,
          impact: incident.impact,
          status: incident.status,
          components: refs,
          update: { seq: update.seq, status: update.status, body: update.body, createdAt: update.createdAt },
        },
        url: link,
      },
    });
  }

  async maintenanceChanged(tx: Tx, business: BusinessId, id: string, event: MaintenanceEvent): Promise<void> {
    const b = await this.notices.business(tx, business);
    const m = b && (await this.notices.maintenance(tx, business, id));
    if (!b || !m) return;
    const { productIds, refs } = this.affected(await this.notices.resources(tx, business), m.resourceIds);
    const link = this.pageLink(b.slug, id);
    await this.send(tx, business, productIds, {
      eventId: `maintenance:${id}:${event}`,
      webhookType: `maintenance.${event}`,
      headline: `[${b.name}] ${m.name}`,
      notice: {
        type: 'maintenance',
        event,
        business: b.name,
        maintenance: m.name,
        scheduledFor: m.scheduledFor.toISOString(),
        scheduledUntil: m.scheduledUntil.toISOString(),
        components: refs,
        body: m.body,
        url: link,
      },
      payload: {
        business: b.slug,
        maintenance: {
          id,
          name: m.name,
          body: m.body,
          status: m.status,
          components: refs,
          scheduledFor: m.scheduledFor,
          scheduledUntil: m.scheduledUntil,
        },
        url: link,
      },
    });
  }

  /** The public products touched (null: business-wide) and the public components' names. */
  private affected(visible: NoticeResource[], resourceIds: string[]) {
    if (!resourceIds.length) return { productIds: null, refs: [] };
    const touched = visible.filter((r) => resourceIds.includes(r.id));
    return {
      productIds: [...new Set(touched.map((r) => r.productId))],
      refs: touched.map((r) => r.ref).sort(),
    };
  }

  private pageLink(slug: string, anchor: string): string {
    const base = this.config.PUBLIC_STATUS_URL.replace(/\/+$/, '');
    return `${base}/PublicStatus/StatusPage?business=${encodeURIComponent(slug)}#${anchor}`;
  }

  private async send(
    tx: Tx,
    business: BusinessId,
    productIds: string[] | null,
    n: { eventId: string; webhookType: string; headline: string; notice: MailNotice; payload: unknown },
  ): Promise<void> {
    const audience = await this.subscribers.audience(tx, business, productIds);
    await this.subscribers.enqueueMail(
      tx,
      audience.emails.map((subscriberId) => ({
        subscriberId,
        kind: 'notification' as const,
        eventId: n.eventId,
        // Language-neutral, staff-written: what a worker of the previous version sends (no notice).
        subject: n.headline,
        body: n.notice.body,
        notice: n.notice,
      })),
    );
    await this.notices.enqueueWebhooks(tx, business, audience.webhooks, {
      type: n.webhookType,
      id: n.eventId,
      payload: n.payload,
    });
  }
}
