import type { EntityMetadata } from 'typeorm';
import type { BindParam, OutboxAppend } from '@platform/outbox';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';
import type { CalendarEvent } from './calendar-event.entity';
import type { EventFields } from './event.mapper';

/**
 * A calendar write as one statement: data-modifying CTEs that write the event row, its outbox event
 * and its journal entry, so a write is one round trip and one (implicit) transaction. Everything that
 * reads the written row reads it from the CTE, which holds nothing when the version check failed: then
 * the statement writes nothing at all.
 */
export class WriteStatement {
  /** `$1` is always the account: the repositories run it through the tenant door, which binds it so. */
  readonly params: unknown[];
  private readonly ctes: string[] = [];

  constructor(accountId: AccountId) {
    this.params = [accountId];
  }

  readonly bind: BindParam = (value) => `$${this.params.push(value)}`;

  with(name: string, sql: string): void {
    this.ctes.push(`${name} AS (\n  ${sql}\n)`);
  }

  sql(main: string): string {
    return `WITH ${this.ctes.join(',\n')}\n${main}`;
  }
}

/** The journal's share of a write: adds its CTEs and names the one whose `cursor` column it returns. */
export interface JournalPart {
  /**
   * `people`: the SQL of the people whose views the entry touches (default: the row's `person_ids`);
   * `busyChanged`: the SQL telling whether the write may have moved what a busy block shows (default
   * true; always false for the kinds that touch only attendees or the room).
   */
  addTo(st: WriteStatement, source: string, people?: string, busyChanged?: string): string;
}

/** What a write records besides the event row, in the same statement. */
export interface WriteParts {
  outbox: OutboxAppend;
  journal: JournalPart;
}

export interface WriteIdentity {
  accountId: AccountId;
  productId: ProductId;
  entityType: string;
  entityId: string;
}

/**
 * What a busy block, or the views that show one, depend on: its times and zone, its status, who sees
 * it and whether in full (people, visibility), the resources it is found by, and its series.
 */
const BUSY_COLUMNS = [
  'starts_at',
  'ends_at',
  'start_date',
  'end_date',
  'all_day',
  'time_zone',
  'status',
  'visibility',
  'person_ids',
  'resource_ids',
  'recurrence',
  'recurrence_overrides',
];

const identityWhere = (st: WriteStatement, id: WriteIdentity) =>
  `account_id = $1 AND product_id = ${st.bind(id.productId)}
    AND entity_type = ${st.bind(id.entityType)} AND entity_id = ${st.bind(id.entityId)}`;

/** The replaced columns, named and typed by the entity's metadata (jsonb values go as JSON text). */
function fieldColumns(meta: EntityMetadata, st: WriteStatement, fields: EventFields) {
  return Object.entries(fields).map(([property, value]) => {
    const column = meta.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${property} is not a column of ${meta.tableName}`);
    const json = column.type === 'jsonb';
    return {
      name: `"${column.databaseName}"`,
      value: json ? `${st.bind(JSON.stringify(value))}::jsonb` : st.bind(value),
    };
  });
}

/** Every column of a row of `alias`, named as the entity's properties (dates as `YYYY-MM-DD`, as TypeORM). */
export function asEntity(meta: EntityMetadata, alias: string): string {
  return meta.columns
    .map((c) => {
      const col = `${alias}."${c.databaseName}"`;
      return `${c.type === 'date' ? `to_char(${col}, 'YYYY-MM-DD')` : col} AS "${c.propertyName}"`;
    })
    .join(', ');
}

/**
 * Version 1 of a new triple (`expected` 0), or the next version of the row at `expected`. A row that
 * exists already (create) or is not at `expected` (update) is left alone, and so are the outbox and the
 * journal: the statement returns no row. The version check is the UPDATE's own condition, so of
 * concurrent writers sending the same version exactly one matches (PostgreSQL re-checks it on the row
 * that a concurrent writer committed).
 */
export function upsertStatement(
  meta: EntityMetadata,
  id: WriteIdentity,
  fields: EventFields,
  expected: number,
  parts: WriteParts,
): { sql: string; params: unknown[] } {
  const st = new WriteStatement(id.accountId);
  const columns = fieldColumns(meta, st, fields);
  if (expected === 0) {
    st.with(
      'written',
      `INSERT INTO events
    (account_id, product_id, entity_type, entity_id, version, ${columns.map((c) => c.name).join(', ')})
  VALUES ($1, ${st.bind(id.productId)}, ${st.bind(id.entityType)},
    ${st.bind(id.entityId)}, 1, ${columns.map((c) => c.value).join(', ')})
  ON CONFLICT (account_id, product_id, entity_type, entity_id) DO NOTHING
  RETURNING *`,
    );
  } else {
    // `prior`: the people before the write (the statement's snapshot; the write applies only to the row
    // at `expected`, which is that one), so the journal entry reaches a person the event left; and what
    // a busy block shows, so the entry tells whether it moved (`busy_changed`, migration JournalKinds).
    const busy = (t: string) => BUSY_COLUMNS.map((c) => `${t}.${c}`).join(', ');
    st.with(
      'written',
      `UPDATE events SET ${columns.map((c) => `${c.name} = ${c.value}`).join(', ')},
    version = version + 1, updated_at = now()
  FROM (SELECT person_ids AS prior_people, ROW(${busy('events')}) AS prior_busy
    FROM events WHERE ${identityWhere(st, id)}) prior
  WHERE ${identityWhere(st, id)} AND version = ${st.bind(expected)}
  RETURNING events.*, prior.prior_people, ROW(${busy('events')}) IS DISTINCT FROM prior.prior_busy AS busy_changed`,
    );
  }
  st.with('outboxed', parts.outbox.insertSql(st.bind, 'written'));
  const cursor =
    expected === 0
      ? parts.journal.addTo(st, 'written')
      : parts.journal.addTo(st, 'written', 'array_cat(person_ids, prior_people)', 'busy_changed');
  return {
    sql: st.sql(`SELECT ${asEntity(meta, 'w')}, c.cursor FROM written w CROSS JOIN ${cursor} c`),
    params: st.params,
  };
}

/** Deletes the triple (only at `version` when given), with its outbox event and journal entry. */
export function removeStatement(
  id: WriteIdentity,
  version: number | undefined,
  parts: WriteParts,
): { sql: string; params: unknown[] } {
  const st = new WriteStatement(id.accountId);
  st.with(
    'removed',
    `DELETE FROM events
  WHERE ${identityWhere(st, id)}${version === undefined ? '' : ` AND version = ${st.bind(version)}`}
  RETURNING id, account_id, product_id, entity_type, entity_id, version, person_ids, dav_calendar, dav_name`,
  );
  st.with('outboxed', parts.outbox.insertSql(st.bind, 'removed'));
  const cursor = parts.journal.addTo(st, 'removed');
  return {
    sql: st.sql(`SELECT r.version, c.cursor FROM removed r CROSS JOIN ${cursor} c`),
    params: st.params,
  };
}

/** A row of `upsertStatement`, as the entity plus its journal cursor. */
export function writtenEvent(row: Record<string, unknown>): { event: CalendarEvent; cursor: number } {
  const { cursor, ...event } = row;
  return { event: event as unknown as CalendarEvent, cursor: Number(cursor) };
}
