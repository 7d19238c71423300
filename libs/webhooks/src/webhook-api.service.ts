import type { DomainError } from '@platform/envelope';
import { WebhookApiReason, type WebhookApiErrorsBase } from './webhook-api.errors';
import { webhookSubscriptionView, type WebhookSubscriptionView } from './webhook-api.views';
import type {
  CreateWebhookSubscription,
  UpdateWebhookSubscription,
  WebhookSubscription,
  WebhookSubscriptionBound,
  WebhookSubscriptionWithSecret,
} from './webhook-subscriptions.service';
import { PublicTargetError, PublicTargetRefusal } from '@platform/network';

/** An organization's subscriptions (`WebhookSubscriptions`, on the pool or bound to a transaction). */
export interface WebhookSubscriptionStore {
  create(
    tenantId: string,
    input: CreateWebhookSubscription,
    bound?: WebhookSubscriptionBound,
  ): Promise<WebhookSubscriptionWithSecret>;
  list(tenantId: string): Promise<WebhookSubscription[]>;
  get(tenantId: string, id: string): Promise<WebhookSubscription | undefined>;
  update(
    tenantId: string,
    id: string,
    input: UpdateWebhookSubscription,
  ): Promise<WebhookSubscription | undefined>;
  delete(tenantId: string, id: string): Promise<boolean>;
  rotateSecret(
    tenantId: string,
    id: string,
    options?: { overlapSeconds?: number },
  ): Promise<WebhookSubscriptionWithSecret | undefined>;
}

/** A new subscription as the request gives it. */
export interface WebhookSubscriptionInput {
  url: string;
  events: string[];
  description?: string | null;
}

/** A change; absent fields stay as they are. */
export interface WebhookSubscriptionChange {
  url?: string;
  events?: string[];
  enabled?: boolean;
  description?: string | null;
}

export type WebhookSubscriptionWithSecretView = WebhookSubscriptionView & { secret: string };

// The lib's refusal codes are the API's reasons: a new refusal fails this line until it has one.
const REFUSALS: Record<PublicTargetRefusal, WebhookApiReason> = {
  [PublicTargetRefusal.INVALID_URL]: WebhookApiReason.URL_INVALID,
  [PublicTargetRefusal.INSECURE_SCHEME]: WebhookApiReason.URL_INSECURE_SCHEME,
  [PublicTargetRefusal.PRIVATE_ADDRESS]: WebhookApiReason.URL_PRIVATE_ADDRESS,
  [PublicTargetRefusal.UNRESOLVABLE]: WebhookApiReason.URL_UNRESOLVABLE,
};

/**
 * What every service's webhook API does alike with an organization's subscriptions: create (bounded
 * per organization, the URL checked by the SSRF guard), list, get, change, delete, rotate the secret,
 * each answering views that never carry a secret but at create and rotate, and the service's coded
 * errors. A service extends it with its routes' own operations (the delivery log, redrive, tests) and
 * says where the rows are: on the pool, or in the organization's tenant transaction.
 */
export abstract class WebhookSubscriptionsApi<Org extends string = string> {
  protected constructor(protected readonly errors: WebhookApiErrorsBase) {}

  /**
   * Runs `fn` on the organization's subscriptions in one transaction (the create's bound takes a lock
   * that lasts until it commits): the organization's tenant transaction, or one on the pool.
   */
  protected abstract withSubscriptions<T>(
    org: Org,
    fn: (subscriptions: WebhookSubscriptionStore) => Promise<T>,
  ): Promise<T>;

  /** False in production without WEBHOOKS_SECRET_KEY: every route answers NOT_CONFIGURED (503). */
  protected abstract configured(): boolean;

  /** How many subscriptions an organization may have. */
  protected abstract maxPerOrganization(): number;

  async create(org: Org, input: WebhookSubscriptionInput): Promise<WebhookSubscriptionWithSecretView> {
    this.assertConfigured();
    const max = this.maxPerOrganization();
    // A hard bound, under concurrency too (libs/persistence withinCountLimit): it keeps one
    // organization's fan-out small.
    const created = await this.withSubscriptions(org, (subscriptions) =>
      this.refusingBadUrls(() =>
        subscriptions.create(
          org,
          { url: input.url, eventTypes: input.events, description: input.description ?? null },
          { max, full: (m) => this.errors.limitReached(m) },
        ),
      ),
    );
    return { ...webhookSubscriptionView(created.subscription), secret: created.secret };
  }

  /** Oldest first. */
  async list(org: Org): Promise<{ items: WebhookSubscriptionView[]; total: number }> {
    this.assertConfigured();
    const items = (await this.withSubscriptions(org, (s) => s.list(org))).map(webhookSubscriptionView);
    return { items, total: items.length };
  }

  async get(org: Org, id: string): Promise<WebhookSubscriptionView> {
    this.assertConfigured();
    const found = await this.withSubscriptions(org, (s) => s.get(org, id));
    if (!found) throw this.errors.notFound(id);
    return webhookSubscriptionView(found);
  }

  /** The URL is checked again; the secret does not change. */
  async update(org: Org, id: string, change: WebhookSubscriptionChange): Promise<WebhookSubscriptionView> {
    this.assertConfigured();
    const updated = await this.withSubscriptions(org, (s) =>
      this.refusingBadUrls(() =>
        s.update(org, id, {
          url: change.url,
          eventTypes: change.events,
          enabled: change.enabled,
          description: change.description,
        }),
      ),
    );
    if (!updated) throw this.errors.notFound(id);
    return webhookSubscriptionView(updated);
  }

  /** With its deliveries and their log. */
  async delete(org: Org, id: string): Promise<{ id: string; deleted: true }> {
    this.assertConfigured();
    if (!(await this.withSubscriptions(org, (s) => s.delete(org, id)))) throw this.errors.notFound(id);
    return { id, deleted: true };
  }

  /** A new secret, shown once; the previous one keeps signing for `overlapSeconds` (default 24 h). */
  async rotateSecret(
    org: Org,
    id: string,
    options: { overlapSeconds?: number },
  ): Promise<WebhookSubscriptionWithSecretView> {
    this.assertConfigured();
    const rotated = await this.withSubscriptions(org, (s) =>
      s.rotateSecret(org, id, { overlapSeconds: options.overlapSeconds }),
    );
    if (!rotated) throw this.errors.notFound(id);
    return { ...webhookSubscriptionView(rotated.subscription), secret: rotated.secret };
  }

  protected assertConfigured(): void {
    if (!this.configured()) throw this.errors.error(WebhookApiReason.NOT_CONFIGURED);
  }

  protected deliveryNotFound(deliveryId: string): DomainError {
    return this.errors.error(WebhookApiReason.DELIVERY_NOT_FOUND, { deliveryId });
  }

  /** Why a delivery was not redriven: it is unknown (or another organization's), or not dead. */
  protected notRedriven(found: { status: string } | undefined, deliveryId: string): DomainError {
    return found
      ? this.errors.error(WebhookApiReason.DELIVERY_NOT_DEAD, { status: found.status })
      : this.deliveryNotFound(deliveryId);
  }

  /** The SSRF guard's refusals become the service's coded, localised 422s. */
  protected async refusingBadUrls<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof PublicTargetError) {
        throw this.errors.error(REFUSALS[e.reason], {
          address: e.details.address ?? '',
          addressClass: e.details.addressClass ?? '',
        });
      }
      // Event types and description are validated by the DTO first: a RangeError here is still the
      // caller's input, never a 500.
      if (e instanceof RangeError) throw this.errors.error(WebhookApiReason.URL_INVALID);
      throw e;
    }
  }
}
