import { Injectable } from '@nestjs/common';
import { PublicStatusConfig } from '../config/public-status.config';
import { PublicStatusError, publicStatusError } from '../status/public-status.errors';
import { PublicRepository, type PublicResource } from './public.unscoped.repository';
import { renderRss, type FeedItem } from './rss-feed';

/** How many incidents and maintenances the feed looks at, and how many items it keeps. */
const FEED_SOURCES = 25;
const FEED_ITEMS = 50;

/**
 * The RSS feed: one item per incident update (guid `urn:public-status:incident:<code>:update:<seq>`)
 * and per maintenance step (`urn:public-status:maintenance:<code>:<status>`), newest first. Read only
 * through the publication views, like every anonymous answer: affected components are named only as
 * far as they are public. Links are absolute, on PUBLIC_STATUS_URL (never the caller's Host header:
 * the answer is shared by caches).
 */
@Injectable()
export class PublicFeedService {
  constructor(
    private readonly pub: PublicRepository,
    private readonly config: PublicStatusConfig,
  ) {}

  async rss(businessSlug: string): Promise<string> {
    const b = await this.pub.business(businessSlug);
    if (!b) throw publicStatusError(PublicStatusError.BUSINESS_NOT_FOUND, { business: businessSlug });
    const [resources, incidents, maintenances] = await Promise.all([
      this.pub.resources(b.id),
      this.pub.recentIncidents(b.id, FEED_SOURCES),
      this.pub.recentMaintenances(b.id, FEED_SOURCES),
    ]);
    const updates = await this.pub.updates(incidents.map((i) => i.id));
    const base = this.config.PUBLIC_STATUS_URL.replace(/\/+$/, '');
    const page = `${base}/PublicStatus/StatusPage?business=${encodeURIComponent(b.slug)}`;
    const affected = components(resources);
    const items: FeedItem[] = [];
    for (const i of incidents) {
      const names = affected(i.resourceIds);
      for (const u of updates.filter((x) => x.incidentId === i.id))
        items.push({
          guid: `urn:public-status:incident:${i.id}:update:${u.seq}`,
          title: `${i.name} [${u.status}]`,
          description: `${u.body}\n\nImpact: ${i.impact}${names}`,
          link: `${page}#${i.id}`,
          date: u.createdAt,
          category: 'incident',
        });
    }
    for (const m of maintenances) {
      const text = `${m.body}\n\nWindow: ${m.scheduledFor.toISOString()} - ${m.scheduledUntil.toISOString()}${affected(m.resourceIds)}`;
      const steps: [string, Date | null][] = [
        ['scheduled', m.createdAt],
        ['in_progress', m.startedAt],
        ['completed', m.completedAt],
      ];
      for (const [step, at] of steps)
        if (at)
          items.push({
            guid: `urn:public-status:maintenance:${m.id}:${step}`,
            title: `${m.name} [maintenance ${step}]`,
            description: text,
            link: `${page}#${m.id}`,
            date: at,
            category: 'maintenance',
          });
    }
    items.sort((x, y) => y.date.getTime() - x.date.getTime() || (x.guid < y.guid ? -1 : 1));
    return renderRss({
      title: `${b.name} status`,
      description: `Incidents and maintenance of ${b.name}`,
      link: page,
      self: `${base}/PublicStatus/Rss?business=${encodeURIComponent(b.slug)}`,
      ttlMinutes: 1,
      items: items.slice(0, FEED_ITEMS),
    });
  }
}

/** "Affected: product/resource, ..." of the public ones among these ids (nothing when none is). */
function components(visible: PublicResource[]) {
  const names = new Map(visible.map((r) => [r.id, `${r.productSlug}/${r.slug}`]));
  return (ids: string[]) => {
    const shown = ids.flatMap((id) => names.get(id) ?? []);
    return shown.length ? `\nAffected: ${shown.join(', ')}` : '';
  };
}
