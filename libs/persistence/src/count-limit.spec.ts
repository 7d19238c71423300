import { withinCountLimit } from './count-limit';

describe('withinCountLimit', () => {
  const setup = (count: number) => {
    const steps: string[] = [];
    const runner = {
      query: async (sql: string, params?: unknown[]) => {
        steps.push(`${sql.includes('pg_advisory_xact_lock') ? 'lock' : sql} ${JSON.stringify(params)}`);
        return [];
      },
    };
    const limit = {
      kind: 'webhook_subscriptions' as const,
      ownerId: 'org-a',
      max: 3,
      count: async () => {
        steps.push('count');
        return count;
      },
      full: (max: number) => new Error(`full at ${max}`),
    };
    return { steps, runner, limit };
  };

  it('takes the lock on (kind, owner) first, then counts, then creates', async () => {
    const { steps, runner, limit } = setup(2);
    const created = await withinCountLimit(runner, limit, async () => {
      steps.push('create');
      return 'row';
    });
    expect(created).toBe('row');
    expect(steps).toEqual(['lock ["webhook_subscriptions:org-a"]', 'count', 'create']);
  });

  it('throws the caller’s error at the bound and creates nothing', async () => {
    const { steps, runner, limit } = setup(3);
    await expect(
      withinCountLimit(runner, limit, async () => {
        steps.push('create');
      }),
    ).rejects.toThrow('full at 3');
    expect(steps).not.toContain('create');
  });
});
