import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import { Transactions } from '@platform/persistence';
import { PublicTargetError } from '@platform/network';
import { WebhookSubscriptions } from '@platform/webhooks';
import { PublicStatusConfig } from '../config/public-status.config';
import { PublicStatusError, publicStatusError } from '../status/public-status.errors';
import type { BusinessId } from '../tenancy/business-id';
import type { SubscribeRequest } from './dto/subscribe.request';
import type { SubscribeResponse } from './dto/subscribe.response';
import { SubscribersRepository } from './subscribers.unscoped.repository';
import { subscriberPublicId, SubscriptionTokens } from './subscription-tokens';

/** What webhook subscribers receive (`X-Service-Event`). */
export const SUBSCRIBER_WEBHOOK_EVENTS = [
  'incident.created',
  'incident.updated',
  'incident.resolved',
  'maintenance.scheduled',
  'maintenance.started',
  'maintenance.completed',
];

/**
 * Anonymous subscriptions (decision 0024). Anonymous is hostile: only public businesses and products,
 * a bounded number of subscribers per business, and an email answer that is the same whether the
 * address was new, pending or already confirmed (the difference only shows in the mailbox).
 */
@Injectable()
export class SubscriptionsService {
  /** Null when subscriptions are off (production without SUBSCRIPTION_TOKEN_SECRET / WEBHOOKS_SECRET_KEY). */
  private readonly tokens: SubscriptionTokens | null;

  constructor(
    private readonly transactions: Transactions,
    private readonly subscribers: SubscribersRepository,
    private readonly webhooks: WebhookSubscriptions,
    private readonly config: PublicStatusConfig,
  ) {
    const secret = config.subscriptionTokenSecret();
    this.tokens = secret && config.webhooksSecretKey() ? new SubscriptionTokens(secret) : null;
  }

  private on(): SubscriptionTokens {
    if (!this.tokens) throw publicStatusError(PublicStatusError.SUBSCRIPTIONS_OFF);
    return this.tokens;
  }

  /** @param language the request's (the platform's rule): the language of every mail this subscriber gets. */
  async subscribe(dto: SubscribeRequest, language: Language): Promise<SubscribeResponse> {
    this.on();
    if ((dto.email === undefined) === (dto.webhook === undefined))
      throw publicStatusError(PublicStatusError.SUBSCRIPTION_TARGET);
    const b = await this.subscribers.publicBusiness(dto.business);
    if (!b) throw publicStatusError(PublicStatusError.BUSINESS_NOT_FOUND, { business: dto.business });
    const slugs = dto.products ?? [];
    const products = await this.subscribers.publicProducts(b.id, slugs);
    const missing = slugs.find((s) => !products.has(s));
    if (missing !== undefined)
      throw publicStatusError(PublicStatusError.PRODUCT_NOT_FOUND, { product: missing });
    const productIds = [...products.values()];
    return dto.email !== undefined
      ? this.subscribeEmail(b, dto.email.toLowerCase(), productIds, language)
      : this.subscribeWebhook(b.id, dto.webhook ?? '', productIds, language);
  }

  private async subscribeEmail(
    b: { id: BusinessId; name: string },
    email: string,
    productIds: string[],
    language: Language,
  ): Promise<SubscribeResponse> {
    await this.transactions.run((tx) =>
      this.subscribers.withinBound(tx, b.id, this.bound(), async () => {
        const nonce = SubscriptionTokens.nonce();
        const pending = await this.subscribers.upsertEmail(tx, {
          publicId: subscriberPublicId(),
          business: b.id,
          email,
          productIds,
          nonce,
          expiresAt: new Date(Date.now() + this.config.SUBSCRIBE_CONFIRM_TTL_HOURS * 3_600_000),
          language,
        });
        if (pending)
          await this.subscribers.enqueueMail(tx, [
            {
              subscriberId: pending.id,
              kind: 'confirm',
              eventId: `confirm:${nonce}`,
              subject: b.name,
              body: '',
            },
          ]);
      }),
    );
    return { kind: 'email', status: 'confirmation_pending' };
  }

  private async subscribeWebhook(
    business: BusinessId,
    url: string,
    productIds: string[],
    language: Language,
  ) {
    const publicId = subscriberPublicId();
    // The subscription, its subscriber row and the bound's count in one transaction: nothing to undo.
    const created = await this.transactions.run((tx) =>
      this.subscribers.withinBound(tx, business, this.bound(), async () => {
        const subscription = await this.refusingBadUrls(() =>
          this.subscribers.webhooksIn(tx, this.webhooks).create(business, {
            url,
            eventTypes: SUBSCRIBER_WEBHOOK_EVENTS,
            description: 'status page subscriber',
          }),
        );
        await this.subscribers.insertWebhook(tx, {
          publicId,
          business,
          webhookSubscriptionId: subscription.subscription.id,
          productIds,
          language,
        });
        return subscription;
      }),
    );
    return {
      kind: 'webhook',
      status: 'active',
      secret: created.secret,
      unsubscribeToken: this.on().unsubscribe(publicId),
      events: SUBSCRIBER_WEBHOOK_EVENTS,
    };
  }

  async confirm(token: string): Promise<{ status: string }> {
    const tokens = this.on();
    const t = SubscriptionTokens.parseConfirm(token);
    if (!t) throw publicStatusError(PublicStatusError.SUBSCRIPTION_TOKEN_INVALID);
    await this.transactions.run(async (tx) => {
      const s = await this.subscribers.lock(tx, t.publicId);
      const valid =
        s?.kind === 'email' &&
        !s.unsubscribedAt &&
        s.confirmNonce !== null &&
        s.confirmExpiresAt !== null &&
        Math.floor(s.confirmExpiresAt.getTime() / 1000) === t.exp &&
        t.exp * 1000 > Date.now() &&
        tokens.confirmMatches(t, s.confirmNonce);
      if (!s || !valid) throw publicStatusError(PublicStatusError.SUBSCRIPTION_TOKEN_INVALID);
      await this.subscribers.markConfirmed(tx, s.id);
    });
    return { status: 'confirmed' };
  }

  /** Idempotent: a genuine token answers `unsubscribed` every time. */
  async unsubscribe(token: string): Promise<{ status: string }> {
    const publicId = this.on().verifyUnsubscribe(token);
    if (!publicId) throw publicStatusError(PublicStatusError.SUBSCRIPTION_TOKEN_INVALID);
    const webhook = await this.transactions.run(async (tx) => {
      const s = await this.subscribers.lock(tx, publicId);
      if (!s) throw publicStatusError(PublicStatusError.SUBSCRIPTION_TOKEN_INVALID);
      if (!s.unsubscribedAt) await this.subscribers.markUnsubscribed(tx, s.id);
      return s.webhookSubscriptionId ? { business: s.businessId, id: s.webhookSubscriptionId } : null;
    });
    if (webhook) await this.webhooks.delete(webhook.business, webhook.id);
    return { status: 'unsubscribed' };
  }

  private bound() {
    return {
      max: this.config.SUBSCRIBERS_MAX_PER_BUSINESS,
      full: () => publicStatusError(PublicStatusError.SUBSCRIBERS_FULL),
    };
  }

  private async refusingBadUrls<T>(create: () => Promise<T>): Promise<T> {
    try {
      return await create();
    } catch (e) {
      if (e instanceof PublicTargetError || e instanceof RangeError)
        throw publicStatusError(PublicStatusError.WEBHOOK_URL_REFUSED, {
          refusal: e instanceof PublicTargetError ? e.reason : 'WEBHOOK_URL_INVALID',
        });
      throw e;
    }
  }
}
