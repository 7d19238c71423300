import { escapeLiteral } from 'pg';
import { quoteSchema } from './sql';

export interface ClaimParams {
  /** The session's lease token (`<owner>:<random>`). */
  token: string;
  /** Rows to claim at most. */
  limit: number;
  leaseMs: number;
  /** Oldest unsent rows the claim looks at (see `claimScript`). */
  headRows: number;
}

/** Where the claim's rows are in the results of a claim script (after BEGIN, two SETs and the lock). */
export const CLAIM_RESULT = 4;

function count(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a count: ${n}`);
  return String(n);
}

const RETURNING = `o.seq, o.id, o.topic, o.event_type, o.schema_version, o.aggregate_type, o.aggregate_id,
         o.tenant_id, o.request_id, o.payload, o.attempts, o.failures, o.trace_context,
         to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at`;

/**
 * One claim as a single round trip (a simple-protocol script: BEGIN ... COMMIT, values inlined as
 * literals), so that a busy event loop delays it once, not once per statement.
 *
 * - Claims of a schema are serialised by a transaction-level advisory lock: each one's snapshot (taken
 *   after the lock) sees every earlier claim, which makes the order check race-free.
 * - Planner statistics lag behind a burst (the table looks all-sent to them); without bitmap and
 *   sequential scans the head is always read in index order and stops after `headRows` rows.
 * - The head: the oldest `headRows` unsent rows in seq order (the pending index). Any row that could
 *   block a candidate in the head is older than it, hence in the head too, so the order check is exact
 *   and costs O(head) however long the backlog. `pastHead` runs the same check over every unsent row,
 *   for when the head is congested (a hot aggregate backing off, many leases elsewhere).
 * - Blocking: an earlier unsent row of the same aggregate leased by another session (lease_owner is
 *   not this token) or backing off. Rows leased under this token are earlier batches of the same
 *   pipeline: not blocking, not claimable again.
 * - The UPDATE re-checks each row as it locks it (a concurrent mark may have changed it since the
 *   snapshot). Waiting for such a lock rather than skipping the row keeps a locked row from being
 *   overtaken by a later event of its aggregate. coalesce(sent_at, dead_at) keeps the planner on the
 *   primary key: it does not imply the partial indexes' predicate.
 * - The head claim also returns the head's size (one row of NULLs when nothing is claimed), so the
 *   caller knows whether to look past it.
 */
export function claimScript(schema: string, p: ClaimParams, pastHead = false): string {
  const table = `${quoteSchema(schema)}.outbox`;
  const token = escapeLiteral(p.token);
  const claimable = (o: string) =>
    `${o}.available_at <= now() AND (${o}.lease_until IS NULL OR ${o}.lease_until < now())
          AND ${o}.lease_owner IS DISTINCT FROM ${token}`;
  const blocking = `available_at > now() OR (lease_until >= now() AND lease_owner <> ${token})`;
  const update = `UPDATE ${table} o
          SET lease_owner = ${token}, lease_until = now() + make_interval(secs => ${count(p.leaseMs)}::double precision / 1000)
        WHERE o.seq = ANY (ARRAY(SELECT seq FROM picked))
          AND coalesce(o.sent_at, o.dead_at) IS NULL AND ${claimable('o')}
       RETURNING ${RETURNING}`;
  const claim = pastHead
    ? `WITH blocked AS (
         SELECT aggregate_type, aggregate_id, min(seq) AS first_seq FROM ${table}
          WHERE sent_at IS NULL AND dead_at IS NULL AND (${blocking})
          GROUP BY aggregate_type, aggregate_id),
       picked AS (
         SELECT o.seq FROM ${table} o
           LEFT JOIN blocked b ON b.aggregate_type = o.aggregate_type AND b.aggregate_id = o.aggregate_id
          WHERE o.sent_at IS NULL AND o.dead_at IS NULL AND ${claimable('o')}
            AND (b.first_seq IS NULL OR o.seq < b.first_seq)
          ORDER BY o.seq LIMIT ${count(p.limit)})
     ${update}`
    : `WITH head AS MATERIALIZED (
         SELECT seq, aggregate_type, aggregate_id, available_at, lease_until, lease_owner FROM ${table}
          WHERE sent_at IS NULL AND dead_at IS NULL ORDER BY seq LIMIT ${count(p.headRows)}),
       blocked AS (
         SELECT aggregate_type, aggregate_id, min(seq) AS first_seq FROM head WHERE ${blocking}
          GROUP BY aggregate_type, aggregate_id),
       picked AS (
         SELECT h.seq FROM head h
           LEFT JOIN blocked b ON b.aggregate_type = h.aggregate_type AND b.aggregate_id = h.aggregate_id
          WHERE ${claimable('h')} AND (b.first_seq IS NULL OR h.seq < b.first_seq)
          ORDER BY h.seq LIMIT ${count(p.limit)}),
       claimed AS (${update})
     SELECT c.*, h.n AS head_size FROM (SELECT count(*)::int AS n FROM head) h LEFT JOIN claimed c ON true`;
  return [
    'BEGIN',
    'SET LOCAL enable_bitmapscan = off',
    'SET LOCAL enable_seqscan = off',
    `SELECT pg_advisory_xact_lock(hashtext('outbox-claim:${schema}'))`,
    claim,
    'COMMIT',
  ].join(';\n');
}
