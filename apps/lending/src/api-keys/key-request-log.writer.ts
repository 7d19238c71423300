import { Injectable } from '@nestjs/common';
import { BatchWriter } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../tenancy/tenant-data';
import { KeyRequestsRepository, type KeyRequestLine, type KeyUse } from './key-requests.repository';

/** A key's last-used time is written at most this often per replica. */
export const LAST_USED_EVERY_MS = 60_000;
/** Past this many remembered keys, those not written within the last minute are forgotten. */
const REMEMBERED_KEYS = 10_000;

/**
 * Partner keys' request log off the request path (the shared BatchWriter: every 200 ms or 500 lines,
 * kept and retried while the database is away, flushed at shutdown). A batch is written per
 * organization, each in its own tenant transaction under row-level security on the control database,
 * next to the keys (TenantData.withKeys: never a tenant database's pool), as one statement that also
 * moves the keys' last-used times forward when due: a key used all day costs one last-used write a
 * minute per replica, not one per request.
 */
@Injectable()
export class KeyRequestLogWriter extends BatchWriter<KeyRequestLine> {
  /** When this replica last wrote each key's last-used time (ms since the epoch). */
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(
    private readonly data: TenantData,
    private readonly requests: KeyRequestsRepository,
  ) {
    super({ what: 'key request log', context: 'KeyRequestLog' });
  }

  protected async write(lines: KeyRequestLine[]): Promise<KeyRequestLine[]> {
    const failed: KeyRequestLine[] = [];
    for (const [organizationId, mine] of byOrganization(lines)) {
      const now = Date.now();
      const uses = this.usesDue(mine, now);
      try {
        await this.data.withKeys(organizationId, (tx) =>
          this.requests.record(organizationId, mine, uses, tx),
        );
        for (const u of uses) this.lastUsedWritten.set(u.keyId, now);
      } catch (err) {
        this.logger.warn(`${organizationId}: ${(err as Error).message}`);
        failed.push(...mine);
      }
    }
    this.forgetStale(Date.now());
    return failed;
  }

  /** The latest use of each key in the lines whose last-used time this replica has not written lately. */
  private usesDue(lines: KeyRequestLine[], now: number): KeyUse[] {
    const latest = new Map<string, Date>();
    for (const l of lines) {
      const seen = latest.get(l.keyId);
      if (!seen || l.at > seen) latest.set(l.keyId, l.at);
    }
    return [...latest]
      .filter(([keyId]) => now - (this.lastUsedWritten.get(keyId) ?? -Infinity) >= LAST_USED_EVERY_MS)
      .map(([keyId, at]) => ({ keyId, at }));
  }

  private forgetStale(now: number): void {
    if (this.lastUsedWritten.size <= REMEMBERED_KEYS) return;
    for (const [keyId, at] of this.lastUsedWritten)
      if (now - at >= LAST_USED_EVERY_MS) this.lastUsedWritten.delete(keyId);
  }
}

function byOrganization(lines: KeyRequestLine[]): Map<OrganizationId, KeyRequestLine[]> {
  const groups = new Map<OrganizationId, KeyRequestLine[]>();
  for (const l of lines) {
    const group = groups.get(l.organizationId);
    if (group) group.push(l);
    else groups.set(l.organizationId, [l]);
  }
  return groups;
}
