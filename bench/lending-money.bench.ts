/**
 * Issue 14's yardstick for money: the built lending app and gateway as processes (real PostgreSQL, the
 * Kafka-protocol broker), measured in one run next to a bare Node `http` hello-world and a plain Nest
 * 11 hello-world:
 *
 * - money operations per second: `POST /Loans/MakePayment` through the gateway, each with a new
 *   Idempotency-Key (so each one books: ledger transaction, lines, outbox events, the stored answer),
 *   C workers each paying its own loan (one loan's operations queue behind its row lock by design);
 * - the time to generate and store a 360-instalment schedule: `POST /Loans/DisburseLoan` of a 360-month
 *   loan through the gateway (schedule generated, 360 rows stored, ledger and events written), next to
 *   `generateSchedule` alone on the same terms in this process;
 * - in the same minutes on the same PostgreSQL (its own database `pgbench`), `pgbench -i` and
 *   `pgbench -c C -j 2 -T BENCH_SECONDS` (TPC-B-like), and the ratio of payments/s to its tps;
 * - what one payment and one 360-instalment disbursement send PostgreSQL: the lending app restarted
 *   behind a counting pass-through (round trips, transactions on the wire) with pg_stat_statements
 *   tracking its sessions, N operations one at a time less an equally long idle window, printed as a
 *   table of statements by execution time;
 * - then issue 23's targets: payments/s >= 0.25 of pgbench tps, payment p99 < 100 ms, a 360-instalment
 *   disbursement < 30 ms (mean). A missed target is printed, not an error; any non-2xx answer exits 1.
 *
 * BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_CONCURRENCY (32), BENCH_SCHEDULES (20),
 * BENCH_PGBENCH_SCALE (1), BENCH_PGBENCH_THREADS (2), BENCH_COUNT_PAYMENTS (100),
 * BENCH_COUNT_DISBURSEMENTS (5).
 */
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { freePort, runAdmin } from '@platform/dev-infra';
import { generateSchedule } from '../apps/lending/src/loans/math';
import { CONCURRENCY, LoadGenerator, SECONDS, WARMUP_SECONDS, print, type Figure } from './shared/load';
import {
  StatementStats,
  WireCounter,
  costOf,
  pgbenchVersion,
  printCost,
  runPgbench,
  type PgbenchResult,
} from './shared/pg-statements';
import { CpuWatch, Processes, waitFor } from './shared/processes';
import { startBenchStack } from './shared/stack';

const DIST = resolve(__dirname, '..');
const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 20);
const PGBENCH_SCALE = Number(process.env.BENCH_PGBENCH_SCALE ?? 1);
const PGBENCH_THREADS = Number(process.env.BENCH_PGBENCH_THREADS ?? 2);
const COUNT_PAYMENTS = Number(process.env.BENCH_COUNT_PAYMENTS ?? 100);
const COUNT_DISBURSEMENTS = Number(process.env.BENCH_COUNT_DISBURSEMENTS ?? 5);
/** Issue 23's targets. */
const TARGET_PGBENCH_RATIO = 0.25;
const TARGET_PAYMENT_P99_MS = 100;
const TARGET_DISBURSE_MS = 30;
const ORG = 'bench-lender';
const SCOPES = [
  'customers:read',
  'customers:write',
  'applications:read',
  'applications:write',
  'loans:read',
  'loans:write',
];

type Env<T> = { success: boolean; code: number; value: T };

async function main(): Promise<void> {
  const stack = await startBenchStack('lending', { statements: true });
  const { env } = stack;
  const pgbenchUrl = await stack.pg.createDatabase('pgbench');

  const ports = {
    node: await freePort(),
    nest: await freePort(),
    lending: await freePort(),
    gateway: await freePort(),
  };
  const procs = new Processes();
  const lg = new LoadGenerator();
  const wire = new WireCounter();
  let pgStats: StatementStats | undefined;
  const app = (entry: string) => ['-r', join(DIST, 'scripts/register-paths.js'), join(DIST, entry)];
  const startLending = async (port: number, databaseUrl: string) => {
    const child = procs.start(process.execPath, app('apps/lending/src/main.js'), {
      ...env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      // Nothing else competes with the payments: the day close runs on request only here.
      LENDING_ACCOUNTING_CLOSE_INTERVAL_MS: '0',
    });
    await waitFor(`http://127.0.0.1:${port}/health/ready`, 'lending');
    return child;
  };
  try {
    procs.helloWorld(DIST, 'node', ports.node);
    procs.helloWorld(DIST, 'nest', ports.nest);
    const lending = await startLending(ports.lending, env.DATABASE_URL);
    procs.start(process.execPath, app('apps/gateway/src/main.js'), {
      ...env,
      PORT: String(ports.gateway),
      LENDING_URL: `http://127.0.0.1:${ports.lending}`,
      // As deployed (a limit per client), high enough that one client never reaches it.
      GATEWAY_RATE_LIMIT: 'on',
      GATEWAY_RATE_LIMIT_MULTIPLIER: '1000000',
    });
    await Promise.all([
      waitFor(`http://127.0.0.1:${ports.node}/`, 'node hello-world'),
      waitFor(`http://127.0.0.1:${ports.nest}/`, 'nest hello-world'),
      waitFor(`http://127.0.0.1:${ports.gateway}/health/live`, 'gateway'),
    ]);
    runAdmin(DIST, 'lending', ['create-organization', ORG, 'Bench lender'], env);
    const key = runAdmin(DIST, 'lending', ['issue-key', ORG, 'bench', SCOPES.join(',')], env) as {
      token: string;
    };
    const headers = { 'X-Api-Key': key.token, 'Organization-Id': ORG };
    const gw = (path: string) => new URL(`http://127.0.0.1:${ports.gateway}${path}`);
    // Through the gateway, or (`base`) straight to a lending process, which checks the key itself.
    let base = `http://127.0.0.1:${ports.gateway}`;
    const api = async <T>(
      method: string,
      path: string,
      body?: unknown,
      extra: Record<string, string> = {},
    ) => {
      const res = await fetch(new URL(`${base}${path}`), {
        method,
        headers: {
          ...headers,
          ...extra,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as Env<T>;
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json.value;
    };

    // Loans to pay: one per worker. And a 360-month product for the schedule figure.
    const product = await api<{ id: string }>('POST', '/Loans/CreateLoanProduct', {
      code: 'BENCH_CASH',
      name: 'Bench cash loan',
      currency: 'KZT',
      minAmount: 100_000,
      maxAmount: 50_000_000,
      minTerm: 3,
      maxTerm: 360,
      annualRate: '24',
      frequency: 'monthly',
      scheduleType: 'annuity',
      dayCount: '30/360',
    });
    const customer = await api<{ id: string }>('POST', '/Customers/CreateCustomer', {
      kind: 'individual',
      individual: { firstName: 'Bench', lastName: 'Borrower' },
    });
    const newLoan = async (termCount?: number) => {
      const application = await api<{ id: string }>('POST', '/Applications/CreateApplication', {
        customerId: customer.id,
        product: {
          productCode: 'CONSUMER_CASH',
          amount: 1_000_000,
          currency: 'KZT',
          termMonths: 12,
          purpose: 'Repairs',
        },
        applicant: { nationalId: '900101300500', monthlyIncome: 500_000, monthlyExpenses: 100_000 },
        channel: 'online',
      });
      await api('POST', '/Applications/SubmitApplication', { applicationId: application.id });
      const checked = await api<{ status: string }>('POST', '/Applications/RunChecks', {
        applicationId: application.id,
      });
      if (checked.status !== 'approved') throw new Error(`application is ${checked.status}`);
      return api<{ id: string }>('POST', '/Loans/CreateLoan', {
        applicationId: application.id,
        productId: product.id,
        ...(termCount ? { termCount } : {}),
      });
    };
    const disburse = (loanId: string) =>
      api<{ schedule: unknown[] }>(
        'POST',
        '/Loans/DisburseLoan',
        { loanId },
        { 'Idempotency-Key': randomUUID() },
      );

    const payable: string[] = [];
    for (let i = 0; i < CONCURRENCY; i++) {
      const loan = await newLoan();
      await disburse(loan.id);
      payable.push(loan.id);
    }
    const long: string[] = [];
    for (let i = 0; i < SCHEDULES; i++) long.push((await newLoan(360)).id);
    const countedLong: string[] = [];
    for (let i = 0; i < COUNT_DISBURSEMENTS; i++) countedLong.push((await newLoan(360)).id);
    print(
      `lending ${ORG}: ${payable.length} active loans to pay, ${long.length + countedLong.length} 360-month loans to disburse; node ${process.version}`,
    );

    const cpu = new CpuWatch();
    const measure = async (name: string, run: () => Promise<Figure>): Promise<Figure> => {
      const from = cpu.snapshot();
      const figure = await run();
      print(`  others' CPU during "${name}": ${cpu.othersSince(from)}% of the machine`);
      return figure;
    };
    const get = (port: number) => () => lg.call({ url: new URL(`http://127.0.0.1:${port}/`) });
    const pay = (worker: number) =>
      lg.call(
        {
          url: gw('/Loans/MakePayment'),
          method: 'POST',
          headers: { ...headers, 'Idempotency-Key': randomUUID() },
          body: JSON.stringify({ loanId: payable[worker], amount: 1, channel: 'card' }),
        },
        'MakePayment',
      );

    await lg.run('warm-up', (_n, w) => pay(w), { seconds: WARMUP_SECONDS, report: false });
    const node = await measure('bare node http hello-world', () =>
      lg.run('bare node http hello-world', get(ports.node)),
    );
    const nest = await measure('plain Nest 12 hello-world', () =>
      lg.run('plain Nest 12 hello-world', get(ports.nest)),
    );
    // The yardstick on the same server, in its own database, just before the payments.
    let pgbench: PgbenchResult | undefined;
    if (pgbenchVersion()) {
      const from = cpu.snapshot();
      pgbench = await runPgbench(pgbenchUrl, {
        clients: CONCURRENCY,
        threads: PGBENCH_THREADS,
        seconds: SECONDS,
        scale: PGBENCH_SCALE,
      });
      print(
        `${'pgbench TPC-B-like (same PostgreSQL)'.padEnd(40)} ${String(Math.round(pgbench.tps)).padStart(6)} tps    ` +
          `latency avg ${pgbench.latencyMs.toFixed(2)} ms  (${pgbench.transactions} transactions, ${pgbench.failed} failed, ` +
          `-c ${CONCURRENCY} -j ${PGBENCH_THREADS} -T ${SECONDS}, scale ${pgbench.scale}; ${pgbench.version})`,
      );
      print(`  others' CPU during "pgbench": ${cpu.othersSince(from)}% of the machine`);
      // Its dirty pages are written now, not during the payments.
      const admin = await StatementStats.open(stack.pg.url, env.DATABASE_URL);
      await admin.checkpoint();
      await admin.close();
    } else {
      print('pgbench: not installed (scripts/bench.sh installs it as root with apt-get): no ratio');
    }
    const payments = await measure('MakePayment via gateway', () =>
      lg.run('MakePayment via gateway (new key each)', (_n, w) => pay(w)),
    );
    print(
      `money operations: ${payments.rps} payments/s through the gateway, each a ledger transaction; ` +
        `${(payments.rps / nest.rps).toFixed(3)} of plain Nest, ${(payments.rps / node.rps).toFixed(3)} of bare Node` +
        (pgbench
          ? `, ${(payments.rps / pgbench.tps).toFixed(3)} of pgbench tps (a payment costs ${(pgbench.tps / payments.rps).toFixed(1)} pgbench transactions)`
          : ''),
    );

    // The 360-instalment schedule: generated and stored (DisburseLoan through the gateway), one at a time.
    const stored: number[] = [];
    for (const loanId of long) {
      const t = process.hrtime.bigint();
      const answer = await disburse(loanId);
      stored.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (answer.schedule.length !== 360) throw new Error(`schedule of ${answer.schedule.length} rows`);
    }
    // The same terms, generated only, in this process.
    const terms = {
      principal: 1_000_000,
      annualRate: '24',
      termCount: 360,
      frequency: 'monthly' as const,
      scheduleType: 'annuity' as const,
      dayCount: '30/360' as const,
      disbursementDate: new Date().toISOString().slice(0, 10),
      rounding: 'half-up' as const,
    };
    for (let i = 0; i < 20; i++) generateSchedule(terms);
    const generated: number[] = [];
    for (let i = 0; i < Math.max(50, SCHEDULES * 5); i++) {
      const t = process.hrtime.bigint();
      if (generateSchedule(terms).length !== 360) throw new Error('generateSchedule: not 360 rows');
      generated.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const stats = (xs: number[]) => {
      const s = [...xs].sort((x, y) => x - y);
      const mean = s.reduce((x, y) => x + y, 0) / s.length;
      return `mean ${mean.toFixed(2)} ms, p50 ${s[Math.floor(s.length / 2)].toFixed(2)} ms, max ${s[s.length - 1].toFixed(2)} ms (${s.length} runs)`;
    };
    print(`360-instalment schedule generated and stored (DisburseLoan via gateway): ${stats(stored)}`);
    print(`360-instalment schedule generated only (generateSchedule, in process):   ${stats(generated)}`);
    const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
    print(
      `storing and everything around it (HTTP, key, ledger, 360 rows, events) costs ${(mean(stored) / mean(generated)).toFixed(1)}x the generation`,
    );

    // What one payment and one disbursement send PostgreSQL: the lending app again, now behind the
    // counting pass-through, its new sessions tracked by pg_stat_statements; called directly (the
    // gateway adds no statement), one operation at a time.
    const countStatements = async () => {
      lending.kill('SIGTERM');
      await new Promise<void>((r) => (lending.exitCode !== null ? r() : lending.once('exit', () => r())));
      pgStats = await StatementStats.open(stack.pg.url, env.DATABASE_URL);
      await pgStats.trackNewSessions();
      const url = new URL(env.DATABASE_URL);
      url.port = String(await wire.start(stack.pg.port));
      const port = await freePort();
      await startLending(port, url.toString());
      base = `http://127.0.0.1:${port}`;
      const payOnce = (i: number) =>
        api(
          'POST',
          '/Loans/MakePayment',
          { loanId: payable[i % payable.length], amount: 1, channel: 'card' },
          {
            'Idempotency-Key': randomUUID(),
          },
        );
      // Warm: the pool's connections opened, the statements prepared, the app's caches filled.
      for (let i = 0; i < 20; i++) await payOnce(i);
      const from = cpu.snapshot();
      const s = pgStats;
      const paid = await s.window(wire, async () => {
        for (let i = 0; i < COUNT_PAYMENTS; i++) await payOnce(i);
      });
      const quietPay = await s.window(wire, () => new Promise((r) => setTimeout(r, paid.ms)));
      const disbursed = await s.window(wire, async () => {
        for (const loanId of countedLong) {
          const answer = await disburse(loanId);
          if (answer.schedule.length !== 360) throw new Error(`schedule of ${answer.schedule.length} rows`);
        }
      });
      const quietDisburse = await s.window(wire, () => new Promise((r) => setTimeout(r, disbursed.ms)));
      print(`  others' CPU while counting: ${cpu.othersSince(from)}% of the machine`);
      return {
        payment: costOf(COUNT_PAYMENTS, paid, quietPay),
        disbursement: costOf(countedLong.length, disbursed, quietDisburse),
      };
    };
    const counted = await countStatements();
    printCost('one MakePayment', counted.payment);
    printCost('one 360-instalment DisburseLoan', counted.disbursement);

    // Issue 23's targets, next to what was measured.
    const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
    const row = (what: string, value: string, target: string, met: boolean | undefined) =>
      print(
        `  ${what.padEnd(40)} ${value.padStart(12)}  ${target.padEnd(10)} ${met === undefined ? 'n/a' : verdict(met)}`,
      );
    print('targets (issue 23):');
    const ratio = pgbench ? payments.rps / pgbench.tps : undefined;
    row(
      'MakePayment/s / pgbench tps',
      ratio === undefined ? 'no pgbench' : ratio.toFixed(3),
      `>= ${TARGET_PGBENCH_RATIO}`,
      ratio === undefined ? undefined : ratio >= TARGET_PGBENCH_RATIO,
    );
    row(
      'MakePayment p99',
      `${payments.p99.toFixed(1)} ms`,
      `< ${TARGET_PAYMENT_P99_MS} ms`,
      payments.p99 < TARGET_PAYMENT_P99_MS,
    );
    row(
      '360-instalment DisburseLoan (mean)',
      `${mean(stored).toFixed(1)} ms`,
      `< ${TARGET_DISBURSE_MS} ms`,
      mean(stored) < TARGET_DISBURSE_MS,
    );
    if (lg.errors) throw new Error(`${lg.errors} answers were not 2xx`);
  } finally {
    lg.destroy();
    procs.stopAll();
    wire.stop();
    await pgStats?.close().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500));
    await stack.stop();
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
