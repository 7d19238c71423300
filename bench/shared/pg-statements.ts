/**
 * What an operation costs PostgreSQL, measured on the bench's embedded server:
 *
 * - `WireCounter`: a TCP pass-through between an app and PostgreSQL that counts the frontend messages
 *   of the wire protocol. Every `Query` (simple protocol) and every `Sync` (extended protocol, one per
 *   parameterised statement as node-pg sends them) is answered by one ReadyForQuery; a round trip is a
 *   wait of the client: it starts when a Query or Sync goes out with none outstanding and ends when
 *   the last outstanding one is answered (statements pipelined behind another share its round trip).
 *   Used only while counting, never while a rate is timed (the extra hop would slow the figure).
 * - `StatementStats`: `pg_stat_statements` (calls, rows, time per normalised statement) of one
 *   database over a window of work; less what an equally long idle window ran, over N operations, it
 *   is what one operation costs (`costOf`, `printCost`).
 * - `runPgbench`: Debian's `pgbench` (TPC-B-like) against a database of the same server, the yardstick
 *   the issue compares a payment with.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import { print } from './load';

/** Startup-phase request codes that are answered with one byte, after which a real startup follows. */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/**
 * Splits one direction of a connection into messages (the bytes are only read, never changed) and
 * hands each message's type and, for ReadyForQuery, its transaction status byte to `seen`.
 */
class MessageParser {
  private head = Buffer.alloc(0);
  private skip = 0;
  private readyStatus = false;

  /** `startup`: the frontend side, whose first messages carry no type byte. */
  constructor(
    private startup: boolean,
    private readonly seen: (type: string, status?: string) => void,
  ) {}

  feed(chunk: Buffer): void {
    let off = 0;
    while (off < chunk.length) {
      if (this.readyStatus) {
        // ReadyForQuery's body is one byte: I (idle), T (in a transaction block), E (failed block).
        this.readyStatus = false;
        this.seen('Z', String.fromCharCode(chunk[off]));
        off += 1;
        continue;
      }
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - off);
        this.skip -= n;
        off += n;
        continue;
      }
      // Startup messages: Int32 length, Int32 code. Later: Byte1 type, Int32 length (itself included).
      const size = this.startup ? 8 : 5;
      const take = Math.min(size - this.head.length, chunk.length - off);
      this.head = Buffer.concat([this.head, chunk.subarray(off, off + take)]);
      off += take;
      if (this.head.length < size) return;
      if (this.startup) {
        const code = this.head.readInt32BE(4);
        this.skip = this.head.readInt32BE(0) - 8;
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) {
          this.startup = false;
          this.seen('startup');
        }
      } else {
        const type = String.fromCharCode(this.head[0]);
        this.skip = this.head.readInt32BE(1) - 4;
        if (type === 'Z' && this.skip === 1) {
          this.skip = 0;
          this.readyStatus = true;
        } else {
          this.seen(type);
        }
      }
      this.head = Buffer.alloc(0);
    }
  }
}

export interface WireCounts {
  /** Frontend messages by type: Q (simple query), P (parse), B (bind), E (execute), S (sync), ... */
  messages: Record<string, number>;
  /** Round trips: each Query and each Sync waits for the server's ReadyForQuery. */
  roundTrips: number;
  /** Transaction blocks that ended (ReadyForQuery going from T or E back to I): COMMIT or ROLLBACK. */
  blocks: number;
  /** Time between a client's first message and the server's ReadyForQuery, summed over round trips. */
  waitMs: number;
  /** Statements run in their own implicit transaction (ReadyForQuery I after I). */
  autocommits: number;
  connections: number;
  bytesToServer: number;
  bytesToClient: number;
}

export class WireCounter {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly messages = new Map<string, number>();
  private blocks = 0;
  private waits = 0;
  private waitNs = 0n;
  private autocommits = 0;
  private connections = 0;
  private toServer = 0;
  private toClient = 0;

  /** Listens on 127.0.0.1 and forwards each connection to PostgreSQL's port; resolves the port. */
  async start(upstreamPort: number): Promise<number> {
    const server = createServer((client) => {
      this.connections++;
      const upstream = createConnection({ host: '127.0.0.1', port: upstreamPort, noDelay: true });
      // As node-postgres and PostgreSQL do: without it, Nagle's algorithm holds a statement written
      // right behind another until the first is acknowledged, and the count would time that.
      client.setNoDelay(true);
      this.sockets.add(client).add(upstream);
      // Queries and Syncs sent and not yet answered by a ReadyForQuery, and since when the client waits.
      let outstanding = 0;
      let asked: bigint | undefined;
      const frontend = new MessageParser(true, (t) => {
        this.messages.set(t, (this.messages.get(t) ?? 0) + 1);
        if (t !== 'Q' && t !== 'S') return;
        if (outstanding++ === 0) {
          this.waits++;
          asked = process.hrtime.bigint();
        }
      });
      // The first ReadyForQuery (after authentication) ends no statement.
      let last: string | undefined;
      const backend = new MessageParser(false, (t, status) => {
        if (t !== 'Z') return;
        if (last === 'I' && status === 'I') this.autocommits++;
        if ((last === 'T' || last === 'E') && status === 'I') this.blocks++;
        last = status;
        if (outstanding === 0) return;
        if (--outstanding === 0 && asked !== undefined) {
          this.waitNs += process.hrtime.bigint() - asked;
          asked = undefined;
        }
      });
      client.on('data', (d: Buffer) => {
        this.toServer += d.length;
        frontend.feed(d);
      });
      upstream.on('data', (d: Buffer) => {
        this.toClient += d.length;
        backend.feed(d);
      });
      client.pipe(upstream).pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const addr = server.address();
    return typeof addr === 'object' && addr ? addr.port : 0;
  }

  snapshot(): WireCounts {
    const messages = Object.fromEntries(this.messages);
    return {
      messages,
      roundTrips: this.waits,
      blocks: this.blocks,
      waitMs: Number(this.waitNs) / 1e6,
      autocommits: this.autocommits,
      connections: this.connections,
      bytesToServer: this.toServer,
      bytesToClient: this.toClient,
    };
  }

  static since(from: WireCounts, to: WireCounts): WireCounts {
    const types = new Set([...Object.keys(from.messages), ...Object.keys(to.messages)]);
    return {
      messages: Object.fromEntries(
        [...types].map((t) => [t, (to.messages[t] ?? 0) - (from.messages[t] ?? 0)]),
      ),
      roundTrips: to.roundTrips - from.roundTrips,
      blocks: to.blocks - from.blocks,
      waitMs: to.waitMs - from.waitMs,
      autocommits: to.autocommits - from.autocommits,
      connections: to.connections - from.connections,
      bytesToServer: to.bytesToServer - from.bytesToServer,
      bytesToClient: to.bytesToClient - from.bytesToClient,
    };
  }

  stop(): void {
    for (const s of this.sockets) s.destroy();
    this.server?.close();
  }
}

export interface StatementRow {
  queryid: string;
  query: string;
  calls: number;
  rows: number;
  totalMs: number;
}

/** What ran in a window: the statements (pg_stat_statements, reset at its start) and the wire. */
export interface Window {
  statements: Map<string, StatementRow>;
  wire: WireCounts;
  /** Rows each table gained (or lost). */
  added: Map<string, number>;
  ms: number;
}

/**
 * pg_stat_statements of one database, read through a superuser connection to another one (so the
 * readings are not counted among the statements they read). pg_stat_statements is updated as each
 * statement ends, so a reading right after the work is complete; pg_stat_database's counters are
 * not (a backend reports them up to 10 s later), which is why transactions are counted on the wire.
 */
export class StatementStats {
  private constructor(
    private readonly client: Client,
    private readonly data: Client,
    private readonly database: string,
  ) {}

  /**
   * `adminUrl`: the server's `postgres` database, where the extension is created; `databaseUrl`: the
   * measured database, whose tables' rows are counted (superuser: no row-level security) through a
   * session opened before its statements are tracked.
   */
  static async open(adminUrl: string, databaseUrl: string): Promise<StatementStats> {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const data = new Client({ connectionString: databaseUrl });
    await data.connect();
    return new StatementStats(client, data, new URL(databaseUrl).pathname.slice(1));
  }

  /** Sessions of the database opened from now on track the statements their clients send ('top'). */
  async trackNewSessions(): Promise<void> {
    await this.client.query(`ALTER DATABASE "${this.database}" SET pg_stat_statements.track = 'top'`);
  }

  async reset(): Promise<void> {
    await this.client.query('SELECT pg_stat_statements_reset()');
  }

  async read(): Promise<Map<string, StatementRow>> {
    const s = await this.client.query<{
      queryid: string;
      query: string;
      calls: string;
      rows: string;
      total: number;
    }>(
      `SELECT s.queryid::text AS queryid, s.query, s.calls::text AS calls, s.rows::text AS rows,
              s.total_exec_time AS total
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = $1`,
      [this.database],
    );
    return new Map(
      s.rows.map((r) => [
        r.queryid,
        {
          queryid: r.queryid,
          query: r.query,
          calls: Number(r.calls),
          rows: Number(r.rows),
          totalMs: r.total,
        },
      ]),
    );
  }

  /** Rows in each table of the database (counted: the statistics views lag by seconds). */
  async tableRows(): Promise<Map<string, number>> {
    const tables = await this.data.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')`,
    );
    if (!tables.rows.length) return new Map();
    const counted = await this.data.query<{ t: string; n: string }>(
      tables.rows
        .map((r) => `SELECT '${r.name}' AS t, count(*)::text AS n FROM ${r.name}`)
        .join(' UNION ALL '),
    );
    return new Map(counted.rows.map((r) => [r.t, Number(r.n)]));
  }

  /** Runs `work` with the statements reset at its start, the wire and each table's rows counted. */
  async window(wire: WireCounter, work: () => Promise<unknown>): Promise<Window> {
    const rows0 = await this.tableRows();
    await this.reset();
    const from = wire.snapshot();
    const t = process.hrtime.bigint();
    await work();
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    const to = wire.snapshot();
    const statements = await this.read();
    const rows1 = await this.tableRows();
    const added = new Map([...rows1].map(([k, n]) => [k, n - (rows0.get(k) ?? 0)]));
    return { statements, wire: WireCounter.since(from, to), added, ms };
  }

  /** Writes every dirty page now (so one figure's writes do not land in the next one's time). */
  async checkpoint(): Promise<void> {
    await this.client.query('CHECKPOINT');
  }

  async close(): Promise<void> {
    await this.client.end();
    await this.data.end();
  }
}

/**
 * The cost of one operation: `work` ran N of them one after the other, `idle` was an equally long
 * window without them (what the app does meanwhile on its own: timers, health); each figure per
 * operation is (work - idle) / N.
 */
export interface OperationCost {
  n: number;
  msPerOp: number;
  statements: StatementRow[];
  background: StatementRow[];
  statementsPerOp: number;
  /** Of those, run by a trigger at the top level (a deferred constraint trigger at COMMIT), not sent. */
  triggerStatementsPerOp: number;
  roundTripsPerOp: number;
  blocksPerOp: number;
  /** Time the app waited on PostgreSQL per operation, as the pass-through saw it. */
  waitMsPerOp: number;
  /** Frontend messages per operation by type (P parse, B bind, D describe, E execute, S sync, Q query). */
  messagesPerOp: Record<string, number>;
  autocommitsPerOp: number;
  /** Rows each table gained per operation, most first. */
  addedPerOp: [string, number][];
  bytesPerOp: number;
}

/** A trigger function's statement (it names the NEW or OLD row): PostgreSQL ran it, the client did not send it. */
const byTrigger = (r: StatementRow) => /\b(NEW|OLD)\./.test(r.query);

export function costOf(n: number, work: Window, idle: Window): OperationCost {
  const statements: StatementRow[] = [];
  for (const w of work.statements.values()) {
    const i = idle.statements.get(w.queryid);
    const calls = w.calls - (i?.calls ?? 0);
    if (calls <= 0) continue;
    statements.push({
      ...w,
      calls: calls / n,
      rows: (w.rows - (i?.rows ?? 0)) / n,
      totalMs: Math.max(0, w.totalMs - (i?.totalMs ?? 0)) / n,
    });
  }
  statements.sort((a, b) => b.totalMs - a.totalMs);
  const per = (f: (w: Window) => number) => (f(work) - f(idle)) / n;
  const added = [...work.added]
    .map(([t, k]): [string, number] => [t, (k - (idle.added.get(t) ?? 0)) / n])
    .filter(([, k]) => Math.abs(k) >= 0.005)
    .sort((a, b) => b[1] - a[1]);
  return {
    n,
    msPerOp: work.ms / n,
    statements,
    background: [...idle.statements.values()],
    statementsPerOp: statements.reduce((s, r) => s + r.calls, 0),
    triggerStatementsPerOp: statements.filter(byTrigger).reduce((s, r) => s + r.calls, 0),
    roundTripsPerOp: per((w) => w.wire.roundTrips),
    blocksPerOp: per((w) => w.wire.blocks),
    waitMsPerOp: per((w) => w.wire.waitMs),
    messagesPerOp: Object.fromEntries(
      Object.keys(work.wire.messages).map((t) => [t, per((w) => w.wire.messages[t] ?? 0)]),
    ),
    autocommitsPerOp: per((w) => w.wire.autocommits),
    addedPerOp: added,
    bytesPerOp: per((w) => w.wire.bytesToServer + w.wire.bytesToClient),
  };
}

const shorten = (sql: string, width: number) => {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
};
const num = (x: number, digits = 2) => (Number.isInteger(x) ? String(x) : x.toFixed(digits));

/** The cost of one operation: totals, then its statements by time (statement text shortened). */
export function printCost(what: string, cost: OperationCost, width = 100): void {
  print(
    `${what} (mean of ${cost.n}, one at a time, ${cost.msPerOp.toFixed(1)} ms each): ` +
      `${num(cost.statementsPerOp)} statements (${num(cost.statementsPerOp - cost.triggerStatementsPerOp)} sent, ` +
      `${num(cost.triggerStatementsPerOp)} run by triggers at COMMIT), ${num(cost.roundTripsPerOp)} round trips, ` +
      `${num(cost.blocksPerOp)} transactions + ${num(cost.autocommitsPerOp)} autocommit statements, ` +
      `${(cost.bytesPerOp / 1024).toFixed(1)} KiB on the wire`,
  );
  const rows = cost.addedPerOp.reduce((x, [, k]) => x + k, 0);
  print(
    `  rows added: ${num(rows)} (${cost.addedPerOp.map(([t, k]) => `${t.replace(/^(lending|public)\./, '')} ${num(k)}`).join(', ')})`,
  );
  const total = cost.statements.reduce((s, r) => s + r.totalMs, 0);
  print(
    `  ${'calls'.padStart(6)} ${'ms'.padStart(7)} ${'share'.padStart(5)} ${'rows'.padStart(6)}  statement (per operation, by execution time)`,
  );
  for (const r of cost.statements) {
    const share = `${Math.round((100 * r.totalMs) / (total || 1))}%`;
    print(
      `  ${num(r.calls).padStart(6)} ${r.totalMs.toFixed(3).padStart(7)} ${share.padStart(5)} ${num(r.rows).padStart(6)}  ${byTrigger(r) ? '(trigger) ' : ''}${shorten(r.query, width)}`,
    );
  }
  print(
    `  ${''.padStart(6)} ${total.toFixed(3).padStart(7)}  total execution time in PostgreSQL (round trips and lock waits outside)`,
  );
  print(
    `  of ${cost.msPerOp.toFixed(1)} ms per operation (one at a time, HTTP straight to the app): ` +
      `${cost.waitMsPerOp.toFixed(1)} ms waiting on PostgreSQL over ${num(cost.roundTripsPerOp)} round trips ` +
      `(${total.toFixed(1)} ms of it executing statements), ${(cost.msPerOp - cost.waitMsPerOp).toFixed(1)} ms in the app and HTTP`,
  );
  const names: Record<string, string> = {
    Q: 'Query',
    P: 'Parse',
    B: 'Bind',
    D: 'Describe',
    E: 'Execute',
    S: 'Sync',
    p: 'Password',
    startup: 'Startup (a new connection)',
  };
  print(
    `  messages sent per operation: ${Object.entries(cost.messagesPerOp)
      .filter(([, k]) => k >= 0.005)
      .map(([t, k]) => `${names[t] ?? t} ${num(k)}`)
      .join(', ')}${
      (cost.messagesPerOp.P ?? 0) >= (cost.messagesPerOp.S ?? 0) - 0.01
        ? ' (a Parse for every extended-protocol statement: no prepared statement is reused)'
        : ' (fewer Parse than Sync: some named prepared statements are reused)'
    }`,
  );
  if (cost.background.length) {
    print(
      `  subtracted (ran in an equally long idle window too): ` +
        cost.background.map((b) => `${b.calls}x ${shorten(b.query, 60)}`).join('; '),
    );
  }
}

export interface PgbenchResult {
  tps: number;
  latencyMs: number;
  transactions: number;
  failed: number;
  scale: number;
  version: string;
}

/** The pgbench on PATH (Debian's wrapper picks the newest installed client), or undefined. */
export function pgbenchVersion(): string | undefined {
  const r = spawnSync('pgbench', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function run(cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) => resolve({ code: code ?? -1, out }));
  });
}

/**
 * `pgbench -i -s <scale>` then `pgbench -c <clients> -j <threads> -T <seconds>` (the built-in TPC-B-like
 * transaction: BEGIN, three UPDATEs, one SELECT, one INSERT, END) against `url`.
 */
export async function runPgbench(
  url: string,
  opts: { clients: number; threads: number; seconds: number; scale: number },
): Promise<PgbenchResult> {
  const version = pgbenchVersion() ?? 'pgbench';
  const init = await run('pgbench', ['-i', '-q', '-s', String(opts.scale), url]);
  if (init.code !== 0) throw new Error(`pgbench -i failed (${init.code}):\n${init.out}`);
  const args = ['-c', String(opts.clients), '-j', String(opts.threads), '-T', String(opts.seconds)];
  const bench = await run('pgbench', [...args, url]);
  if (bench.code !== 0) throw new Error(`pgbench ${args.join(' ')} failed (${bench.code}):\n${bench.out}`);
  const field = (re: RegExp) => Number(re.exec(bench.out)?.[1] ?? NaN);
  const result = {
    tps: field(/^tps = ([\d.]+)/m),
    latencyMs: field(/^latency average = ([\d.]+) ms/m),
    transactions: field(/^number of transactions actually processed: (\d+)/m),
    failed: field(/^number of failed transactions: (\d+)/m) || 0,
    scale: opts.scale,
    version,
  };
  if (!Number.isFinite(result.tps)) throw new Error(`pgbench printed no tps:\n${bench.out}`);
  return result;
}
