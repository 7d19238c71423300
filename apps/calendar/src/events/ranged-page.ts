/**
 * A page of the ranged events query merged from two sorted sources: plain rows as PostgreSQL ordered
 * them, and occurrences of recurring masters expanded in Node. Both are ordered by the same keys
 * (event-read.repository.ts `searchStatements`): start or update time first, then end, then id.
 */

export interface SortKeys {
  /** Epoch ms; null for an event without times. */
  start: number | null;
  end: number | null;
  /** Update time when the caller may read the event's details (sort=updated), else null. */
  updated: number | null;
  id: string;
  /** Position of an occurrence within its series (equal start, end and id: the series order). */
  seq: number;
}

export interface SortSpec {
  by: 'start' | 'updated';
  direction: 'ASC' | 'DESC';
}

/** PostgreSQL's order for one key: ASC puts nulls last, DESC first (the query says so explicitly). */
function nullable(a: number | null, b: number | null, desc: boolean): number {
  if (a === b) return 0;
  if (a === null) return desc ? -1 : 1;
  if (b === null) return desc ? 1 : -1;
  return desc ? b - a : a - b;
}

/**
 * The query's ORDER BY in Node. Times are compared in milliseconds (the driver's precision), so two
 * rows a few microseconds apart may tie here where PostgreSQL orders them: an occurrence can then
 * land next to, not between, such rows.
 */
export function comparator(sort: SortSpec): (a: SortKeys, b: SortKeys) => number {
  const desc = sort.direction === 'DESC';
  return (a, b) =>
    (sort.by === 'updated'
      ? nullable(a.updated, b.updated, desc) || nullable(a.start, b.start, false)
      : nullable(a.start, b.start, desc)) ||
    nullable(a.end, b.end, false) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) ||
    a.seq - b.seq;
}

/**
 * Items `[offset, offset + limit)` of the merge of all plain rows (total `plainTotal`) with all
 * occurrences (`occurrences`, sorted). `plain` holds the plain rows from index `plainFrom`, and must
 * reach index offset + limit - 1 (or the end): with K occurrences, plainFrom = max(0, offset - K)
 * suffices, because at most K occurrences precede any item of the page.
 */
export function mergePage<P, O>(input: {
  plain: readonly P[];
  plainFrom: number;
  occurrences: readonly O[];
  keyOfPlain: (p: P) => SortKeys;
  keyOfOccurrence: (o: O) => SortKeys;
  sort: SortSpec;
  offset: number;
  limit: number;
}): Array<{ plain: P } | { occurrence: O }> {
  const { plain, occurrences, offset, limit } = input;
  const cmp = comparator(input.sort);
  let i = 0;
  let j = 0;
  let position = 0;
  if (input.plainFrom > 0) {
    if (!plain.length) return []; // nothing from plainFrom on: the page lies past the end
    // The occurrences before the first plain row we hold, all of them at positions before it.
    const first = input.keyOfPlain(plain[0]);
    while (j < occurrences.length && cmp(input.keyOfOccurrence(occurrences[j]), first) < 0) j++;
    position = input.plainFrom + j;
  }
  const page: Array<{ plain: P } | { occurrence: O }> = [];
  const end = offset + limit;
  while (position < end && (i < plain.length || j < occurrences.length)) {
    const takePlain =
      j >= occurrences.length ||
      (i < plain.length && cmp(input.keyOfPlain(plain[i]), input.keyOfOccurrence(occurrences[j])) <= 0);
    if (position >= offset) page.push(takePlain ? { plain: plain[i] } : { occurrence: occurrences[j] });
    if (takePlain) i++;
    else j++;
    position++;
  }
  return page;
}
