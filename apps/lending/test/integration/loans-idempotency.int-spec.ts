import { randomUUID } from 'node:crypto';
import { withClient } from '@platform/testing';
import { IdempotencyRetention } from '../../src/idempotency/idempotency-retention';
import { startLending, type LendingFixture } from './lending-fixture';
import { activeLoan, createdLoan, idem, ok, transactionsOf, unbalancedTransactions } from './loans-helpers';

/**
 * Idempotency-Key on money operations (docs/lending/loans.md, "Idempotency"): real HTTP, real
 * PostgreSQL. The wait for a key held by a running request is shortened to keep the test quick.
 */
describe('lending money operations under Idempotency-Key (real PostgreSQL, real HTTP)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;
  const WAIT_MS = 3_000;

  beforeAll(async () => {
    s = await startLending('lending_idempotency', { LENDING_IDEMPOTENCY_WAIT_MS: String(WAIT_MS) });
    a = await s.organization('bank-a');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  afterEach(async () => {
    expect(await unbalancedTransactions(s)).toEqual([]);
  });

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${s.base}${path}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', 'Language-Code': 'en' },
      body: JSON.stringify(body),
    }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
      replayed: r.headers.get('idempotent-replayed'),
    }));

  it('books 50 concurrent identical payments once and answers all 50 with the same bytes', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a');
    const key = randomUUID();
    const body = { loanId: loan.id, amount: 94_560 };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => post('/Loans/MakePayment', body, idem(a, key))),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    expect(answers.filter((r) => r.replayed === 'true')).toHaveLength(49);
    expect(await transactionsOf(s, loan.id, 'repayment')).toBe(1);
    const value = (JSON.parse(answers[0].text) as { value: { transactionId: string } }).value;
    expect(value.transactionId).toEqual(expect.any(String));
    // A later repeat, with the body's keys in another order, is the same request: the same answer.
    const later = await post('/Loans/MakePayment', { amount: 94_560, loanId: loan.id }, idem(a, key));
    expect([later.status, later.text, later.replayed]).toEqual([200, answers[0].text, 'true']);
    expect(await transactionsOf(s, loan.id, 'repayment')).toBe(1);
  }, 60_000);

  it('requires the key, refuses a malformed one, and a reuse for another request', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a');
    const missing = await s.call(a, 'POST', '/Loans/MakePayment', { loanId: loan.id, amount: 10 }, 'ru');
    expect([missing.status, missing.body.value.reason]).toEqual([400, 'IDEMPOTENCY_KEY_MISSING']);
    expect(missing.body.error).toContain('Idempotency-Key');
    const bad = await s.call(idem(a, 'has space'), 'POST', '/Loans/MakePayment', {
      loanId: loan.id,
      amount: 10,
    });
    expect([bad.status, bad.body.value.reason]).toEqual([400, 'IDEMPOTENCY_KEY_INVALID']);
    const key = randomUUID();
    await ok(s.call(idem(a, key), 'POST', '/Loans/MakePayment', { loanId: loan.id, amount: 10 }));
    const other = await s.call(idem(a, key), 'POST', '/Loans/MakePayment', { loanId: loan.id, amount: 11 });
    expect([other.status, other.body.value.reason]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const otherRoute = await s.call(idem(a, key), 'POST', '/Loans/WriteOffLoan', { loanId: loan.id });
    expect([otherRoute.status, otherRoute.body.value.reason]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await transactionsOf(s, loan.id, 'repayment')).toBe(1);
    // Keys belong to their organization: another one's use of the same key is its own.
    const b = await s.organization('bank-b');
    const { loan: theirs } = await activeLoan(s, b, 'bank-b');
    await ok(s.call(idem(b, key), 'POST', '/Loans/MakePayment', { loanId: theirs.id, amount: 10 }));
    expect(await transactionsOf(s, theirs.id, 'repayment')).toBe(1);
  });

  it('replays a disbursement, and stores no answer for a refused operation', async () => {
    const loan = await createdLoan(s, a, 'bank-a');
    const key = randomUUID();
    const first = await post('/Loans/DisburseLoan', { loanId: loan.id }, idem(a, key));
    const again = await post('/Loans/DisburseLoan', { loanId: loan.id }, idem(a, key));
    expect([first.status, again.status, again.text === first.text, again.replayed]).toEqual([
      200,
      200,
      true,
      'true',
    ]);
    expect(await transactionsOf(s, loan.id, 'disbursement')).toBe(1);
    // A refusal rolls back with its operation: the same key and request are tried afresh.
    const refusedKey = randomUUID();
    const refused = await post('/Loans/DisburseLoan', { loanId: loan.id }, idem(a, refusedKey));
    expect(refused.status).toBe(409);
    const stored = await withClient(s.db.url, (c) =>
      c.query('SELECT 1 FROM lending.idempotency_keys WHERE key = $1', [refusedKey]),
    );
    expect(stored.rowCount).toBe(0);
  });

  it('waits for a request still holding the key, then answers 409 IDEMPOTENCY_REQUEST_IN_PROGRESS', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a');
    const key = randomUUID();
    const lock = `hashtextextended('lending-idempotency:' || 'bank-a' || ':' || $1, 0)`;
    await withClient(s.db.url, async (c) => {
      // Another request's transaction, as far as the key is concerned.
      await c.query(`SELECT pg_advisory_lock(${lock})`, [key]);
      const started = Date.now();
      const busy = await s.call(
        idem(a, key),
        'POST',
        '/Loans/MakePayment',
        { loanId: loan.id, amount: 10 },
        'tr',
      );
      const waited = Date.now() - started;
      expect([busy.status, busy.body.value.reason]).toEqual([409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS']);
      expect(waited).toBeGreaterThanOrEqual(WAIT_MS - 100);
      // Released while the next request waits: it runs and books.
      const pending = s.call(idem(a, key), 'POST', '/Loans/MakePayment', { loanId: loan.id, amount: 10 });
      await new Promise((r) => setTimeout(r, 200));
      await c.query(`SELECT pg_advisory_unlock(${lock})`, [key]);
      expect((await pending).status).toBe(200);
    });
    expect(await transactionsOf(s, loan.id, 'repayment')).toBe(1);
  });

  it('purges expired keys on any replica, and keeps live ones', async () => {
    const live = randomUUID();
    const { loan } = await activeLoan(s, a, 'bank-a');
    await ok(s.call(idem(a, live), 'POST', '/Loans/MakePayment', { loanId: loan.id, amount: 10 }));
    const expired = randomUUID();
    await withClient(s.db.url, (c) =>
      c.query(
        `INSERT INTO lending.idempotency_keys
           (organization_id, key, request_hash, route, status_code, response_body, created_at, expires_at)
         VALUES ('bank-a', $1, 'h', 'POST /Loans/MakePayment', 200, 'null', now() - interval '2 days', now() - interval '1 day')`,
        [expired],
      ),
    );
    const retention = s.app.get(IdempotencyRetention);
    // Two purges at once (as two replicas would): the row goes once, nothing fails.
    const [x, y] = await Promise.all([retention.purge(), retention.purge()]);
    expect(x + y).toBeGreaterThanOrEqual(1);
    const keys = await withClient(s.db.url, (c) =>
      c.query<{ key: string; ttl: number }>(
        `SELECT key, extract(epoch FROM expires_at - created_at)::int AS ttl FROM lending.idempotency_keys WHERE key = ANY($1)`,
        [[live, expired]],
      ),
    );
    expect(keys.rows).toEqual([{ key: live, ttl: 24 * 3600 }]);
  });
});
