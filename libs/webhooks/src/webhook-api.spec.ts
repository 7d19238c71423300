import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { IsOptional, IsUUID, ValidateIf, validateSync } from 'class-validator';
import { DomainError } from '@platform/envelope';
import type { Pool } from 'pg';
import {
  webhookCreateRequest,
  webhookUpdateRequest,
  webhookDeliveryResponse,
  type WebhookApiDocs,
} from './webhook-api.dto';
import { webhookApiErrors } from './webhook-api.errors';
import { WebhookSubscriptionsApi, type WebhookSubscriptionStore } from './webhook-api.service';
import { webhookDeliveryView } from './webhook-api.views';
import type { WebhookDelivery } from './webhook-deliveries';
import type { WebhookSubscription } from './webhook-subscriptions.service';
import { PublicTargetError, PublicTargetRefusal } from '@platform/network';
import { webhooksOptionsFrom, type WebhooksConfig } from './webhooks.options';

const thrown = async (p: Promise<unknown>): Promise<DomainError> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(e)}`);
  return e;
};

describe('webhookApiErrors', () => {
  it("names a service's own two reasons after its noun, with the shared ones, statuses and message keys", () => {
    const e = webhookApiErrors('ENDPOINT', 'id');
    expect(Object.entries(e.reasons)).toEqual([
      ['ENDPOINT_NOT_FOUND', 'WEBHOOK_ENDPOINT_NOT_FOUND'],
      ['DELIVERY_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND'],
      ['DELIVERY_NOT_DEAD', 'WEBHOOK_DELIVERY_NOT_DEAD'],
      ['ENDPOINT_LIMIT_REACHED', 'WEBHOOK_ENDPOINT_LIMIT_REACHED'],
      ['URL_INVALID', 'WEBHOOK_URL_INVALID'],
      ['URL_INSECURE_SCHEME', 'WEBHOOK_URL_INSECURE_SCHEME'],
      ['URL_PRIVATE_ADDRESS', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['URL_UNRESOLVABLE', 'WEBHOOK_URL_UNRESOLVABLE'],
      ['NOT_CONFIGURED', 'WEBHOOKS_NOT_CONFIGURED'],
    ]);
    expect(Object.fromEntries(Object.entries(e.error.specs).map(([c, s]) => [c, s.status]))).toEqual({
      WEBHOOK_ENDPOINT_NOT_FOUND: 404,
      WEBHOOK_DELIVERY_NOT_FOUND: 404,
      WEBHOOK_DELIVERY_NOT_DEAD: 409,
      WEBHOOK_ENDPOINT_LIMIT_REACHED: 409,
      WEBHOOK_URL_INVALID: 422,
      WEBHOOK_URL_INSECURE_SCHEME: 422,
      WEBHOOK_URL_PRIVATE_ADDRESS: 422,
      WEBHOOK_URL_UNRESOLVABLE: 422,
      WEBHOOKS_NOT_CONFIGURED: 503,
    });
    expect(e.error.specs.WEBHOOK_URL_INVALID.messageKey).toBe('webhooks.errors.WEBHOOK_URL_INVALID');
    // Every PublicTargetRefusal is a reason of the table (the guard's codes are answered as they are).
    for (const r of Object.values(PublicTargetRefusal)) expect(e.error.specs[r].status).toBe(422);
  });

  it('gives the not-found message the argument name the service uses', () => {
    const lending = webhookApiErrors('SUBSCRIPTION', 'subscriptionId');
    const e = lending.notFound('s1');
    expect([e.reason, e.status, e.args]).toEqual([
      'WEBHOOK_SUBSCRIPTION_NOT_FOUND',
      404,
      { subscriptionId: 's1' },
    ]);
    expect(lending.limitReached(3).args).toEqual({ max: 3 });
  });
});

const AT = new Date('2026-11-24T09:15:00.000Z');
const sub = (id: string, over: Partial<WebhookSubscription> = {}): WebhookSubscription => ({
  id,
  tenantId: 'org',
  url: 'https://hooks.example.com/x',
  eventTypes: ['a.b'],
  description: null,
  enabled: true,
  createdAt: AT,
  updatedAt: AT,
  secretRotatedAt: null,
  previousSecretValidUntil: null,
  ...over,
});

const fakeStore = () => ({
  create: jest.fn(async (..._args: unknown[]) => ({ subscription: sub('s1'), secret: 'whsec_x' })),
  list: jest.fn(async () => [sub('s1')]),
  get: jest.fn(async (): Promise<WebhookSubscription | undefined> => undefined),
  update: jest.fn(async () => undefined),
  delete: jest.fn(async () => false),
  rotateSecret: jest.fn(async () => undefined),
});

class FakeApi extends WebhookSubscriptionsApi {
  configuredNow = true;
  runs = 0;
  constructor(
    readonly store: ReturnType<typeof fakeStore>,
    private readonly max = 2,
  ) {
    super(webhookApiErrors('SUBSCRIPTION', 'subscriptionId'));
  }
  protected withSubscriptions<T>(_org: string, fn: (s: WebhookSubscriptionStore) => Promise<T>) {
    this.runs += 1;
    return fn(this.store as unknown as WebhookSubscriptionStore);
  }
  protected configured() {
    return this.configuredNow;
  }
  protected maxPerOrganization() {
    return this.max;
  }
  refused(found: { status: string } | undefined) {
    return this.notRedriven(found, 'd1');
  }
}

describe('WebhookSubscriptionsApi', () => {
  it('creates in one unit of work, under the bound, and shows the secret only then', async () => {
    const api = new FakeApi(fakeStore());
    const created = await api.create('org', { url: 'https://x', events: ['a.b'] });
    expect(api.runs).toBe(1);
    expect(api.store.create).toHaveBeenCalledWith(
      'org',
      { url: 'https://x', eventTypes: ['a.b'], description: null },
      { max: 2, full: expect.any(Function) },
    );
    expect(created).toEqual({
      id: 's1',
      url: 'https://hooks.example.com/x',
      events: ['a.b'],
      description: null,
      enabled: true,
      createdAt: AT.toISOString(),
      updatedAt: AT.toISOString(),
      secretRotatedAt: null,
      previousSecretValidUntil: null,
      secret: 'whsec_x',
    });
    api.store.get.mockResolvedValueOnce(sub('s1'));
    expect(await api.get('org', 's1')).not.toHaveProperty('secret');

    // The store counts under the lock and throws the service's coded error (the bound's `full`).
    api.store.create.mockImplementationOnce(async (...args: unknown[]) => {
      const bound = args[2] as { max: number; full: (max: number) => Error };
      throw bound.full(bound.max);
    });
    const full = await thrown(api.create('org', { url: 'https://x', events: ['a.b'] }));
    expect([full.reason, full.status, full.args]).toEqual([
      'WEBHOOK_SUBSCRIPTION_LIMIT_REACHED',
      409,
      { max: 2 },
    ]);
  });

  it("answers the SSRF guard's refusals and the library's RangeErrors as coded 422s", async () => {
    const api = new FakeApi(fakeStore());
    api.store.create.mockRejectedValueOnce(
      new PublicTargetError(PublicTargetRefusal.PRIVATE_ADDRESS, 'private', {
        address: '10.0.0.1',
        addressClass: 'private',
      }),
    );
    const e = await thrown(api.create('org', { url: 'https://x', events: [] }));
    expect([e.reason, e.status, e.args]).toEqual([
      'WEBHOOK_URL_PRIVATE_ADDRESS',
      422,
      { address: '10.0.0.1', addressClass: 'private' },
    ]);
    api.store.update.mockRejectedValueOnce(new RangeError('enabled must be true or false'));
    expect((await thrown(api.update('org', 's1', { enabled: true }))).reason).toBe('WEBHOOK_URL_INVALID');
    api.store.update.mockRejectedValueOnce(new Error('connection lost'));
    await expect(api.update('org', 's1', {})).rejects.toThrow('connection lost');
  });

  it('says not found with the id, not configured before touching the store, and why a redrive failed', async () => {
    const api = new FakeApi(fakeStore());
    for (const p of [
      api.get('org', 's9'),
      api.update('org', 's9', { url: 'https://x' }),
      api.delete('org', 's9'),
      api.rotateSecret('org', 's9', {}),
    ])
      expect((await thrown(p)).args).toEqual({ subscriptionId: 's9' });
    api.configuredNow = false;
    api.runs = 0;
    expect((await thrown(api.list('org'))).status).toBe(503);
    expect(api.runs).toBe(0);
    expect(api.refused(undefined).reason).toBe('WEBHOOK_DELIVERY_NOT_FOUND');
    expect([api.refused({ status: 'pending' }).reason, api.refused({ status: 'pending' }).args]).toEqual([
      'WEBHOOK_DELIVERY_NOT_DEAD',
      { status: 'pending' },
    ]);
  });
});

describe('webhook API classes', () => {
  const docs = (optional: () => PropertyDecorator): WebhookApiDocs => ({
    noun: 'hook',
    urlExample: 'https://hooks.example.com/x',
    events: { enum: ['a.b', 'c.d'], description: 'events', example: ['a.b'], maxItems: 2 },
    noteExample: 'note',
    pauseDescription: 'false pauses it',
    optional,
  });
  const errorsOf = (cls: new () => object, body: object) =>
    validateSync(plainToInstance(cls, body), { whitelist: true, forbidNonWhitelisted: true }).map(
      (e) => e.property,
    );
  const propertiesOf = (cls: { prototype: object }) =>
    (Reflect.getMetadata('swagger/apiModelPropertiesArray', cls.prototype) as string[]).map((p) =>
      p.slice(1),
    );

  class Id {
    @IsUUID() id: string;
  }
  const absentNotNull = () => ValidateIf((_o: object, v: unknown) => v !== undefined);

  it('validate as documented, and put what the base has first', () => {
    class Create extends webhookCreateRequest(docs(IsOptional)) {}
    expect(errorsOf(Create, { url: 'https://x', events: ['a.b'] })).toEqual([]);
    expect(errorsOf(Create, { url: 7, events: ['a.b', 'c.d', 'a.b'], description: 5, extra: 1 })).toEqual([
      'extra',
      'url',
      'events',
      'description',
    ]);
    // An empty or over-long URL is the SSRF guard's 422 WEBHOOK_URL_INVALID (as documented), not a 400.
    expect(errorsOf(Create, { url: '', events: ['a.b'] })).toEqual([]);
    expect(errorsOf(Create, { url: `https://x/${'a'.repeat(3000)}`, events: ['a.b'] })).toEqual([]);
    class Update extends webhookUpdateRequest(docs(absentNotNull), Id) {}
    expect(propertiesOf(Update)).toEqual(['url', 'events', 'enabled', 'description']);
    expect(errorsOf(Update, { id: 'x', url: null, description: null })).toEqual(['id', 'url']);
    class Lenient extends webhookUpdateRequest(docs(IsOptional)) {}
    expect(errorsOf(Lenient, { url: null, enabled: null })).toEqual([]);
  });

  it("document a delivery with the service's name for its subscription, right after the id", () => {
    const Delivery = webhookDeliveryResponse('hookId', {
      event: { description: 'the event', example: 'a.b' },
      eventId: 'the id',
      nextAttemptAt: 'next',
      example: {
        status: 'dead',
        attempts: 1,
        lastResponseStatus: 500,
        lastError: null,
        deliveredAt: null,
        deadAt: null,
      },
    });
    expect(propertiesOf(Delivery).slice(0, 3)).toEqual(['id', 'hookId', 'event']);
    const d: WebhookDelivery = {
      id: 'd1',
      subscriptionId: 's1',
      eventType: 'a.b',
      eventId: 'e1',
      status: 'dead',
      attempts: 1,
      nextAttemptAt: null,
      lastStatus: 500,
      lastError: null,
      createdAt: AT,
      deliveredAt: null,
      deadAt: AT,
    };
    // The view says the same names in the same order.
    expect(Object.keys(webhookDeliveryView(d, 'hookId'))).toEqual(propertiesOf(Delivery));
  });
});

describe('webhooksOptionsFrom', () => {
  const cfg = (over: Partial<WebhooksConfig> = {}, key: string | null = 'k'.repeat(40)): WebhooksConfig => ({
    NODE_ENV: 'test',
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'off',
    WEBHOOKS_WORKER_INTERVAL_MS: 1000,
    WEBHOOKS_MAX_ATTEMPTS: 15,
    WEBHOOKS_BACKOFF_BASE_MS: 60_000,
    WEBHOOKS_BACKOFF_MAX_MS: 1000,
    webhooksSecretKey: () => key,
    ...over,
  });
  const pool = {} as Pool;

  it('runs the worker only with a key and an interval, the backoff cap never below its base', () => {
    const on = webhooksOptionsFrom(cfg(), pool, 'svc', { jitter: 'equal' });
    expect(on).toMatchObject({
      schema: 'svc',
      secretKey: 'k'.repeat(40),
      policy: { allowPrivateTargets: 'off' },
    });
    expect(on.worker).toMatchObject({
      pollIntervalMs: 1000,
      maxAttempts: 15,
      backoffMaxMs: 60_000,
      jitter: 'equal',
    });
    expect(webhooksOptionsFrom(cfg(), pool, 'svc').worker).not.toHaveProperty('jitter');
    expect(webhooksOptionsFrom(cfg({ WEBHOOKS_WORKER_INTERVAL_MS: 0 }), pool, 'svc').worker).toBe(false);
    const off = webhooksOptionsFrom(cfg({}, null), pool, 'svc');
    expect(off.worker).toBe(false);
    expect(off.secretKey).toMatch(/^[0-9a-f]{64}$/);
  });
});
