import { Injectable, Logger } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import { BusinessesRepository } from '../catalog/businesses.unscoped.repository';
import { ResourcesRepository } from '../catalog/resources.repository';
import { chainHash, GENESIS_HASH } from '../status/hash-chain';
import { StateHistoryRepository } from '../status/state-history.repository';
import type { BusinessId } from '../tenancy/business-id';
import { rowOfSeconds, secondsOfRow, uptimeCanonical } from './uptime-chain';
import {
  DAY_MS,
  dayKey,
  dayStart,
  daysBetween,
  secondsPerDay,
  worstOfTimelines,
  zeroSeconds,
  type StateSeconds,
  type StateSpan,
} from './uptime-math';
import { UptimeRepository } from './uptime.repository';

export interface DaySeries {
  days: Map<string, StateSeconds>;
}

/**
 * Uptime from state history. Complete days come from the daily rollups (one query for any range);
 * a day without a rollup yet and today are computed live from the history, so a figure never waits
 * for the job. A product's figures are computed from its resources' histories at each moment (worst
 * state wins), because which resources count depends on what is published now.
 */
@Injectable()
export class UptimeService {
  private readonly log = new Logger('UptimeRollup');

  constructor(
    private readonly transactions: Transactions,
    private readonly rollups: UptimeRepository,
    private readonly history: StateHistoryRepository,
    private readonly businesses: BusinessesRepository,
    private readonly resources: ResourcesRepository,
  ) {}

  private async spans(business: BusinessId, resourceIds: string[], from: number, to: number) {
    const rows = await this.history.overlapping(business, resourceIds, new Date(from), new Date(to));
    const out = new Map<string, StateSpan[]>(resourceIds.map((id) => [id, []]));
    for (const h of rows)
      out.get(h.resourceId)?.push({
        state: h.state,
        start: h.startedAt.getTime(),
        end: h.endedAt?.getTime() ?? null,
      });
    return out;
  }

  /** Seconds per state per day for each resource, over the listed days. */
  async resourceDays(
    business: BusinessId,
    resourceIds: string[],
    days: string[],
    now = Date.now(),
  ): Promise<Map<string, Map<string, StateSeconds>>> {
    const out = new Map(resourceIds.map((id) => [id, new Map<string, StateSeconds>()]));
    if (!days.length) return out;
    const today = dayKey(now);
    const rolled = await this.rollups.current(business, resourceIds, days[0], days[days.length - 1]);
    for (const u of rolled) if (u.day < today) out.get(u.resourceId)?.set(u.day, secondsOfRow(u));
    const missing = new Set<string>();
    for (const perDay of out.values()) for (const d of days) if (!perDay.has(d)) missing.add(d);
    if (missing.size) {
      const live = [...missing].sort();
      const spans = await this.spans(
        business,
        resourceIds,
        dayStart(live[0]),
        dayStart(live[live.length - 1]) + DAY_MS,
      );
      for (const [id, perDay] of out) {
        const computed = secondsPerDay(spans.get(id) ?? [], live, now);
        for (const [d, seconds] of computed) if (!perDay.has(d)) perDay.set(d, seconds);
      }
    }
    return out;
  }

  /** A product's seconds per state per day: at each moment the worst of these resources. */
  async productDays(
    business: BusinessId,
    resourceIds: string[],
    days: string[],
    now = Date.now(),
  ): Promise<Map<string, StateSeconds>> {
    if (!resourceIds.length || !days.length) return new Map(days.map((d) => [d, zeroSeconds()]));
    const spans = await this.spans(
      business,
      resourceIds,
      dayStart(days[0]),
      dayStart(days[days.length - 1]) + DAY_MS,
    );
    return secondsPerDay(worstOfTimelines([...spans.values()], now), days, now);
  }

  /**
   * Rolls up complete days [fromDay, toDay] (capped at yesterday) for every resource of every
   * business. Idempotent: a day whose figures did not change gets no row; one whose history changed
   * gets a correction (the next revision). Safe on several replicas: per resource, an advisory lock
   * orders them, and the unique (resource, day, revision) drops a duplicate.
   */
  async rollup(fromDay: string, toDay: string, now = Date.now()): Promise<{ inserted: number }> {
    const yesterday = dayKey(now - DAY_MS);
    const last = toDay < yesterday ? toDay : yesterday;
    if (fromDay > last) return { inserted: 0 };
    const days = daysBetween(fromDay, last);
    let inserted = 0;
    for (const business of await this.businesses.allIds())
      for (const resource of await this.resources.list(business))
        inserted += await this.rollupResource(business, resource.id, days, now);
    return { inserted };
  }

  private rollupResource(
    business: BusinessId,
    resourceId: string,
    days: string[],
    now: number,
  ): Promise<number> {
    return this.transactions.run(async (tx) => {
      await this.rollups.lockChain(business, resourceId, tx);
      const spans = await this.spans(
        business,
        [resourceId],
        dayStart(days[0]),
        dayStart(days[days.length - 1]) + DAY_MS,
      );
      const computed = secondsPerDay(spans.get(resourceId) ?? [], days, now);
      let inserted = 0;
      let head = await this.rollups.lastLink(business, resourceId, tx);
      for (const [day, seconds] of computed) {
        if (Object.values(seconds).every((s) => s === 0)) continue;
        const current = await this.rollups.latestOfDay(business, resourceId, day, tx);
        if (current && sameSeconds(secondsOfRow(current), seconds)) continue;
        const row = {
          resourceId,
          day,
          revision: (current?.revision ?? 0) + 1,
          ...rowOfSeconds(seconds),
          computedAt: new Date(now),
        };
        const prevHash = head?.hash ?? GENESIS_HASH;
        const link = { ...row, prevHash, hash: chainHash(prevHash, uptimeCanonical(row)) };
        if (await this.rollups.append(business, link, tx)) {
          inserted++;
          head = { ...link, id: '', businessId: business };
        }
      }
      return inserted;
    });
  }

  /** The periodic job: yesterday and the day before (late history becomes a correction). */
  async rollupRecent(now = Date.now()): Promise<void> {
    try {
      const r = await this.rollup(dayKey(now - 2 * DAY_MS), dayKey(now - DAY_MS), now);
      if (r.inserted) this.log.log(`rolled up ${r.inserted} resource-days`);
    } catch (err) {
      this.log.error(`uptime rollup failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

const sameSeconds = (a: StateSeconds, b: StateSeconds) =>
  (Object.keys(a) as (keyof StateSeconds)[]).every((k) => a[k] === b[k]);
