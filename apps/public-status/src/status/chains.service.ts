import { Injectable } from '@nestjs/common';
import { ProductsRepository } from '../catalog/products.repository';
import { ResourcesRepository } from '../catalog/resources.repository';
import { incidentUpdateCanonical } from '../incidents/incident-chain';
import { IncidentUpdatesRepository } from '../incidents/incident-updates.repository';
import type { BusinessId } from '../tenancy/business-id';
import { uptimeCanonical } from '../uptime/uptime-chain';
import { UptimeRepository } from '../uptime/uptime.repository';
import { firstBrokenLink } from './hash-chain';

export interface ChainReport {
  checked: number;
  /** Where each broken chain first fails. */
  broken: { chain: string; at: string }[];
}

function groupBy<T>(rows: T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) out.set(key(r), [...(out.get(key(r)) ?? []), r]);
  return out;
}

/** Recomputes every hash chain of a business from its rows: any rewritten, removed or reordered row shows. */
@Injectable()
export class ChainsService {
  constructor(
    private readonly updates: IncidentUpdatesRepository,
    private readonly uptime: UptimeRepository,
    private readonly products: ProductsRepository,
    private readonly resources: ResourcesRepository,
  ) {}

  async verify(business: BusinessId): Promise<{ incidents: ChainReport; uptime: ChainReport }> {
    const [updates, days, products, resources] = await Promise.all([
      this.updates.all(business),
      this.uptime.all(business),
      this.products.list(business),
      this.resources.list(business),
    ]);
    const incidents: ChainReport = { checked: 0, broken: [] };
    for (const [id, rows] of groupBy(updates, (u) => u.incidentId)) {
      incidents.checked++;
      const at = firstBrokenLink(
        rows.map((u, i) => ({
          prevHash: u.prevHash,
          hash: u.hash,
          // A removed or renumbered row breaks the chain even if every hash was recomputed.
          canonical: u.seq === i + 1 ? incidentUpdateCanonical(u) : { gap: u.seq },
        })),
      );
      if (at >= 0) incidents.broken.push({ chain: id, at: `seq ${rows[at].seq}` });
    }
    const productSlug = new Map(products.map((p) => [p.id, p.slug]));
    const names = new Map(resources.map((r) => [r.id, `${productSlug.get(r.productId)}/${r.slug}`]));
    const uptime: ChainReport = { checked: 0, broken: [] };
    for (const [id, rows] of groupBy(days, (u) => u.resourceId)) {
      uptime.checked++;
      const at = firstBrokenLink(
        rows.map((u) => ({ prevHash: u.prevHash, hash: u.hash, canonical: uptimeCanonical(u) })),
      );
      if (at >= 0)
        uptime.broken.push({ chain: names.get(id) ?? id, at: `${rows[at].day} r${rows[at].revision}` });
    }
    return { incidents, uptime };
  }
}
