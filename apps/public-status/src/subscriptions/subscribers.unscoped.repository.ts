// Unscoped: anonymous sign-ups find a business by its public slug, and the mail worker's audience spans businesses.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Language } from '@platform/i18n';
import { txManager, withinCountLimit, type Tx } from '@platform/persistence';
import type { WebhookSubscriptions } from '@platform/webhooks';
import { DataSource } from 'typeorm';
import { asBusinessId, type BusinessId } from '../tenancy/business-id';
import type { MailNotice } from './mail-texts';

export interface PendingConfirmation {
  id: string;
  publicId: string;
}

export interface SubscriberRow {
  id: string;
  publicId: string;
  businessId: BusinessId;
  kind: 'email' | 'webhook';
  webhookSubscriptionId: string | null;
  confirmNonce: string | null;
  confirmExpiresAt: Date | null;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
}

const SUBSCRIBER_COLUMNS = `id, public_id AS "publicId", business_id AS "businessId", kind,
  webhook_subscription_id AS "webhookSubscriptionId", confirm_nonce AS "confirmNonce",
  confirm_expires_at AS "confirmExpiresAt", confirmed_at AS "confirmedAt", unsubscribed_at AS "unsubscribedAt"`;

/** A confirmation mail is sent at most once per this interval per address (no mail bombing by form). */
const CONFIRM_RESEND_INTERVAL = `interval '10 minutes'`;

/**
 * Subscribers of status pages. Businesses and products are looked up only in the publication views:
 * nobody subscribes to what is not public. Internal ids never leave the service; links carry the
 * subscriber's public id.
 */
@Injectable()
export class SubscribersRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async publicBusiness(slug: string): Promise<{ id: BusinessId; slug: string; name: string } | null> {
    const [row] = (await this.ds.query(`SELECT id, slug, name FROM public_businesses WHERE slug = $1`, [
      slug,
    ])) as { id: string; slug: string; name: string }[];
    return row ? { ...row, id: asBusinessId(row.id) } : null;
  }

  /** Public products of the business among these slugs, as slug -> id. */
  async publicProducts(business: BusinessId, slugs: string[]): Promise<Map<string, string>> {
    if (!slugs.length) return new Map();
    const rows = (await this.ds.query(
      `SELECT id, slug FROM public_products WHERE business_id = $1 AND slug = ANY($2::text[])`,
      [business, slugs],
    )) as { id: string; slug: string }[];
    return new Map(rows.map((r) => [r.slug, r.id]));
  }

  /**
   * Runs `create` only while the business has fewer than `max` active subscribers, under the
   * platform's count lock (libs/persistence withinCountLimit): concurrent sign-ups of one business
   * take turns, so they cannot pass the bound together; `full` is the error past it.
   */
  withinBound<T>(
    tx: Tx,
    business: BusinessId,
    bound: { max: number; full: () => Error },
    create: () => Promise<T>,
  ): Promise<T> {
    return withinCountLimit(
      txManager(tx),
      {
        kind: 'status_subscribers',
        ownerId: business,
        max: bound.max,
        count: () => this.count(tx, business),
        full: bound.full,
      },
      create,
    );
  }

  private async count(tx: Tx, business: BusinessId): Promise<number> {
    const [row] = (await txManager(tx).query(
      `SELECT count(*) AS n FROM subscribers WHERE business_id = $1 AND unsubscribed_at IS NULL`,
      [business],
    )) as { n: string }[];
    return Number(row.n);
  }

  /** The webhook subscriptions (libs/webhooks, this schema) in the transaction `tx`. */
  webhooksIn(tx: Tx, webhooks: WebhookSubscriptions): WebhookSubscriptions {
    return webhooks.withRunner(txManager(tx));
  }

  /**
   * A new pending subscriber, or a pending or unsubscribed one restarted with a new nonce (older links
   * die) and the language of this request. Null when nothing is to be mailed: already confirmed (an
   * anonymous request changes neither its products nor its language), or a confirmation went out
   * minutes ago.
   */
  async upsertEmail(
    tx: Tx,
    input: {
      publicId: string;
      business: BusinessId;
      email: string;
      productIds: string[];
      nonce: string;
      expiresAt: Date;
      language: Language;
    },
  ): Promise<PendingConfirmation | null> {
    const rows = (await txManager(tx).query(
      `INSERT INTO subscribers AS s (public_id, business_id, kind, email, product_ids, confirm_nonce, confirm_expires_at, language)
       VALUES ($1, $2, 'email', $3, $4::uuid[], $5, $6, $7)
       ON CONFLICT (business_id, email) WHERE email IS NOT NULL DO UPDATE
         SET product_ids = EXCLUDED.product_ids, confirm_nonce = EXCLUDED.confirm_nonce,
             confirm_expires_at = EXCLUDED.confirm_expires_at, language = EXCLUDED.language,
             confirmed_at = NULL, unsubscribed_at = NULL
       WHERE (s.confirmed_at IS NULL OR s.unsubscribed_at IS NOT NULL)
         AND NOT EXISTS (SELECT 1 FROM mail_outbox m WHERE m.subscriber_id = s.id AND m.kind = 'confirm'
                         AND m.created_at > now() - ${CONFIRM_RESEND_INTERVAL})
       RETURNING id, public_id AS "publicId"`,
      [
        input.publicId,
        input.business,
        input.email,
        input.productIds,
        input.nonce,
        input.expiresAt,
        input.language,
      ],
    )) as PendingConfirmation[];
    return rows[0] ?? null;
  }

  async insertWebhook(
    tx: Tx,
    input: {
      publicId: string;
      business: BusinessId;
      webhookSubscriptionId: string;
      productIds: string[];
      language: Language;
    },
  ): Promise<void> {
    // The language is kept for the record only: webhook payloads are machine data, in no language.
    await txManager(tx).query(
      `INSERT INTO subscribers (public_id, business_id, kind, webhook_subscription_id, product_ids, confirmed_at, language)
       VALUES ($1, $2, 'webhook', $3, $4::uuid[], now(), $5)`,
      [input.publicId, input.business, input.webhookSubscriptionId, input.productIds, input.language],
    );
  }

  async lock(tx: Tx, publicId: string): Promise<SubscriberRow | null> {
    const [row] = (await txManager(tx).query(
      `SELECT ${SUBSCRIBER_COLUMNS} FROM subscribers WHERE public_id = $1 FOR UPDATE`,
      [publicId],
    )) as SubscriberRow[];
    return row ?? null;
  }

  async markConfirmed(tx: Tx, id: string): Promise<void> {
    await txManager(tx).query(
      `UPDATE subscribers SET confirmed_at = now(), confirm_nonce = NULL, confirm_expires_at = NULL WHERE id = $1`,
      [id],
    );
  }

  async markUnsubscribed(tx: Tx, id: string): Promise<void> {
    await txManager(tx).query(
      `UPDATE subscribers SET unsubscribed_at = now(), confirm_nonce = NULL, confirm_expires_at = NULL
       WHERE id = $1 AND unsubscribed_at IS NULL`,
      [id],
    );
    // Mail not sent yet is not sent any more.
    await txManager(tx).query(
      `UPDATE mail_outbox SET status = 'dropped', finished_at = now()
       WHERE subscriber_id = $1 AND status IN ('pending', 'sending')`,
      [id],
    );
  }

  /**
   * Queues a mail in the caller's transaction; the same (subscriber, event) twice is one mail. A
   * notification carries its notice, which the worker renders in the subscriber's language.
   */
  async enqueueMail(
    tx: Tx,
    rows: {
      subscriberId: string;
      kind: 'confirm' | 'notification';
      eventId: string;
      subject: string;
      body: string;
      notice?: MailNotice;
    }[],
  ): Promise<void> {
    if (!rows.length) return;
    await txManager(tx).query(
      `INSERT INTO mail_outbox (subscriber_id, kind, event_id, subject, body, notice)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[])
       ON CONFLICT (subscriber_id, event_id) DO NOTHING`,
      [
        rows.map((r) => r.subscriberId),
        rows.map((r) => r.kind),
        rows.map((r) => r.eventId),
        rows.map((r) => r.subject),
        rows.map((r) => r.body),
        rows.map((r) => (r.notice ? JSON.stringify(r.notice) : null)),
      ],
    );
  }

  /**
   * Confirmed, subscribed recipients of a change touching these public products (null: business-wide,
   * everyone). A subscriber to the whole business gets everything.
   */
  async audience(
    tx: Tx,
    business: BusinessId,
    productIds: string[] | null,
  ): Promise<{ emails: string[]; webhooks: string[] }> {
    const rows = (await txManager(tx).query(
      `SELECT id, kind, webhook_subscription_id AS "webhookSubscriptionId" FROM subscribers
       WHERE business_id = $1 AND confirmed_at IS NOT NULL AND unsubscribed_at IS NULL
         AND ($2::uuid[] IS NULL OR cardinality(product_ids) = 0 OR product_ids && $2::uuid[])`,
      [business, productIds],
    )) as { id: string; kind: string; webhookSubscriptionId: string | null }[];
    return {
      emails: rows.filter((r) => r.kind === 'email').map((r) => r.id),
      webhooks: rows.flatMap((r) => (r.webhookSubscriptionId ? [r.webhookSubscriptionId] : [])),
    };
  }
}
