import type { OrganizationId, OwnersRepository } from '@platform/tenancy';
import { TenantPurgeJob } from './tenant-purge.job';

/** Rows per organization; `broken` fails its second batch. */
class FakePurge extends TenantPurgeJob {
  readonly calls: string[] = [];
  /** Called in every batch (a shutdown arriving meanwhile). */
  during = () => undefined as unknown;
  constructor(
    private readonly rows: Record<string, number>,
    private readonly broken = '',
  ) {
    super('FakePurge', { ids: async () => Object.keys(rows) } as unknown as OwnersRepository);
  }
  protected cutoff(now: Date): Date {
    return new Date(now.getTime() - 1000);
  }
  protected async purgeBatch(org: OrganizationId, before: Date, batch: number): Promise<number> {
    this.calls.push(`${org}@${before.toISOString()}`);
    this.during();
    if (org === this.broken && this.calls.filter((c) => c.startsWith(org)).length > 1)
      throw new Error('database unreachable');
    const n = Math.min(batch, this.rows[org]);
    this.rows[org] -= n;
    return n;
  }
  protected purged(deleted: number): string {
    return `purged ${deleted}`;
  }
}

describe('TenantPurgeJob', () => {
  const now = new Date('2027-01-01T00:00:00Z');

  it('purges organization by organization in batches until one comes back short', async () => {
    const job = new FakePurge({ a: 5, b: 4 });
    expect(await job.purge({ now, batch: 2 })).toBe(9);
    // a: 2, 2, 1 (short); b: 2, 2, 0 (short).
    expect(job.calls).toEqual([
      ...Array(3).fill('a@2026-12-31T23:59:59.000Z'),
      ...Array(3).fill('b@2026-12-31T23:59:59.000Z'),
    ]);
  });

  it('keeps what a failing organization deleted and goes on with the next', async () => {
    const job = new FakePurge({ a: 5, b: 3 }, 'a');
    expect(await job.purge({ now, batch: 2 })).toBe(2 + 3);
    expect(job.calls.filter((c) => c.startsWith('b'))).toHaveLength(2);
  });

  it('stops between batches once shutdown begins', async () => {
    const job = new FakePurge({ a: 10, b: 10 });
    let shutdown: Promise<void> | undefined;
    job.during = () => (shutdown ??= job.onApplicationShutdown());
    expect(await job.purge({ now, batch: 2 })).toBe(2);
    await shutdown;
    expect(job.calls).toHaveLength(1);
  });
});
