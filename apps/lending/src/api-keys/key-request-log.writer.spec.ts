import type { Tx } from '@platform/persistence';
import { asOrganizationId, type OrganizationId } from '@platform/tenancy';
import type { TenantData } from '../tenancy/tenant-data';
import type { KeyRequestLine, KeyRequestsRepository, KeyUse } from './key-requests.repository';
import { KeyRequestLogWriter } from './key-request-log.writer';

const A = asOrganizationId('bank-a');
const B = asOrganizationId('bank-b');

const line = (organizationId: OrganizationId, keyId: string, at: number, status = 200): KeyRequestLine => ({
  organizationId,
  keyId,
  at: new Date(at),
  method: 'GET',
  path: '/ApiKeys/GetKeys',
  status,
  durationMs: 1,
  requestId: `r-${at}`,
});

describe('KeyRequestLogWriter', () => {
  let writes: { org: OrganizationId; lines: number; uses: KeyUse[] }[];
  let failing: Set<OrganizationId>;
  let writer: KeyRequestLogWriter;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    writes = [];
    failing = new Set();
    const data = {
      withKeys: async (org: OrganizationId, work: (tx: Tx) => Promise<unknown>) => {
        if (failing.has(org)) throw new Error('connection lost');
        return work({} as Tx);
      },
    } as unknown as TenantData;
    const repo = {
      record: async (org: OrganizationId, lines: KeyRequestLine[], uses: KeyUse[]) =>
        void writes.push({ org, lines: lines.length, uses }),
    } as unknown as KeyRequestsRepository;
    writer = new KeyRequestLogWriter(data, repo);
    (writer as unknown as { logger: { warn: () => void } }).logger.warn = () => undefined;
  });

  afterEach(() => jest.useRealTimers());

  it("writes each organization's lines in its own tenant transaction, with each key's latest use", async () => {
    [line(A, 'k1', 10), line(B, 'k2', 20), line(A, 'k1', 30), line(A, 'k3', 5)].forEach((l) =>
      writer.record(l),
    );
    await writer.flush();
    expect(writes).toEqual([
      {
        org: A,
        lines: 3,
        uses: [
          { keyId: 'k1', at: new Date(30) },
          { keyId: 'k3', at: new Date(5) },
        ],
      },
      { org: B, lines: 1, uses: [{ keyId: 'k2', at: new Date(20) }] },
    ]);
  });

  it("writes a key's last use at most once a minute, whatever the traffic", async () => {
    writer.record(line(A, 'k1', 1));
    await writer.flush();
    jest.setSystemTime(1_000_000 + 59_000);
    writer.record(line(A, 'k1', 2));
    writer.record(line(A, 'k2', 2));
    await writer.flush();
    jest.setSystemTime(1_000_000 + 60_000);
    writer.record(line(A, 'k1', 3));
    await writer.flush();
    expect(writes.map((w) => w.uses.map((u) => `${u.keyId}@${u.at.getTime()}`))).toEqual([
      ['k1@1'],
      ['k2@2'],
      ['k1@3'],
    ]);
  });

  it("keeps a failing organization's lines for later, and writes the others' now", async () => {
    failing.add(B);
    [line(A, 'k1', 1), line(B, 'k2', 2)].forEach((l) => writer.record(l));
    await writer.flush();
    expect(writes.map((w) => w.org)).toEqual([A]);
    failing.clear();
    await jest.advanceTimersByTimeAsync(2000);
    expect(writes.map((w) => w.org)).toEqual([A, B]);
    // B's last use was not written while its write failed: it goes with the retry.
    expect(writes[1].uses).toEqual([{ keyId: 'k2', at: new Date(2) }]);
  });
});
