import { decodeCursor, encodeCursor, FIRST_PAGE, type SlotCursor } from './slot-cursor';
import { normalizeSearch, type NormalizedSearch } from './slot-request';
import type {
  ExcludedCandidate,
  Exclusion,
  FindSlotsRequest,
  FindSlotsResult,
  Slot,
} from './slot-search.types';
import { candidateGrid, REASONS, SlotTimeline, type TimelineView } from './slot-timeline';

/**
 * Every meeting time at which all required participants can attend, ranked, one page at a time.
 *
 * Candidates: starts on a fixed UTC grid, every `granularityMinutes` from the Unix epoch (so 09:00,
 * 09:15, ... UTC for 15 minutes; in a zone whose offset is not a multiple of the step, e.g. India with
 * a 60-minute step, the starts fall on :30 local), whose slot [start, start + duration) lies in the range.
 *
 * A candidate is a slot when, for every required participant,
 * - the slot and its buffers, [start - before, end + after), overlap none of their busy intervals, nor
 *   their tentative ones unless `tentativeAsFree`;
 * - the slot itself (not the buffers) lies within one of their working intervals (see
 *   `workingIntervals` for DST); no working hours means always available.
 * An optional participant is free at a slot by the same test, and counted in `optionalFree`.
 *
 * Ranking (total and deterministic): more optional participants free first, then the earlier start.
 * With no optional participants this is simply chronological.
 *
 * Pagination: a global ranking needs every candidate, so each call computes and ranks all of them and
 * returns `maxResults` from the cursor on. The cursor is the ranking key of the next slot (and, with
 * `explain`, the start of the next rejected candidate): a keyset, so a page boundary does not shift when
 * calendars change between calls, although slots may then appear in, or drop out of, pages already
 * read. The work per call is bounded by SLOT_SEARCH_LIMITS (31 days, 5-minute steps: at most 8,928
 * candidates): O(I log I + C + P) for I busy intervals, C candidates, P participants, plus
 * O(P x maxResults) for the participant lists of the page.
 *
 * `explain`: the rejected starts too, earliest first, `maxResults` per page, each with every required
 * participant and reason that rules it out.
 *
 * @throws AvailabilityError for any invalid input (see normalizeSearch, parseWorkingHours, decodeCursor)
 */
export function findSlots(request: FindSlotsRequest): FindSlotsResult {
  const search = normalizeSearch(request);
  const position = search.cursor === null ? FIRST_PAGE : decodeCursor(search.cursor);
  const grid = candidateGrid(search.range, search.durationMs, search.granularityMs);
  const timeline = new SlotTimeline(grid, search);
  const startOf = (i: number) => grid.first + i * grid.step;
  const optional = search.participants.flatMap((p, i) => (p.required ? [] : [i]));
  const required = search.participants.flatMap((p, i) => (p.required ? [i] : []));

  // Pass 1: which candidates are slots and how many optional participants each has; the explain page.
  const slotIndex: number[] = [];
  const slotFree: number[] = [];
  const excluded: ExcludedCandidate[] = [];
  let totalExcluded = 0;
  let nextExcluded: number | null = null;
  const excludedFrom = position.excluded;
  timeline.sweep((i, view) => {
    if (view.requiredBlocked === 0) {
      slotIndex.push(i);
      slotFree.push(optional.length - view.optionalBlocked);
      return;
    }
    if (!search.explain) return;
    totalExcluded++;
    const start = startOf(i);
    if (excludedFrom === null || start < excludedFrom) return;
    if (excluded.length < search.maxResults) {
      excluded.push({ start, end: start + grid.duration, reasons: explainAt(view, required, search) });
    } else if (nextExcluded === null) {
      nextExcluded = start;
    }
  });

  const ranked = rank(slotIndex, slotFree, optional.length);
  const first = pageStart(ranked, slotFree, slotIndex, startOf, position);
  const page = ranked.slice(first, first + search.maxResults);
  const after = ranked[first + search.maxResults];
  const slots = describeSlots(page, slotIndex, timeline, optional, search, startOf);

  const next: SlotCursor = {
    slots: after === undefined ? null : { optionalFree: slotFree[after], start: startOf(slotIndex[after]) },
    excluded: search.explain ? nextExcluded : null,
  };
  const result: FindSlotsResult = {
    slots,
    totalSlots: slotIndex.length,
    nextCursor: next.slots === null && next.excluded === null ? null : encodeCursor(next),
  };
  if (search.explain) {
    result.excluded = excluded;
    result.totalExcluded = totalExcluded;
  }
  return result;
}

/**
 * Positions into `slotIndex`, best first: by optional participants free (descending), then by start.
 * A counting sort on the free count, stable, so starts stay ascending within a count. O(C + P).
 */
function rank(slotIndex: readonly number[], slotFree: readonly number[], optionalCount: number): number[] {
  const offsets = new Array<number>(optionalCount + 2).fill(0);
  for (const f of slotFree) offsets[optionalCount - f + 1]++;
  for (let k = 1; k < offsets.length; k++) offsets[k] += offsets[k - 1];
  const ranked = new Array<number>(slotIndex.length);
  for (let s = 0; s < slotIndex.length; s++) ranked[offsets[optionalCount - slotFree[s]]++] = s;
  return ranked;
}

/** The first ranked position at or after the cursor's key (ranked.length when there is none). */
function pageStart(
  ranked: readonly number[],
  slotFree: readonly number[],
  slotIndex: readonly number[],
  startOf: (i: number) => number,
  position: SlotCursor,
): number {
  const key = position.slots;
  if (key === null) return ranked.length;
  // The keys are sorted in ranking order, so "at or after the cursor" is a suffix: binary search.
  let lo = 0;
  let hi = ranked.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const s = ranked[mid];
    const atOrAfter =
      slotFree[s] < key.optionalFree ||
      (slotFree[s] === key.optionalFree && startOf(slotIndex[s]) >= key.start);
    if (atOrAfter) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Pass 2: the optional participants' lists, for the slots of this page only. */
function describeSlots(
  page: readonly number[],
  slotIndex: readonly number[],
  timeline: SlotTimeline,
  optional: readonly number[],
  search: NormalizedSearch,
  startOf: (i: number) => number,
): Slot[] {
  const lists = new Map<number, { optionalFree: string[]; optionalBusy: string[] }>();
  if (optional.length > 0 && page.length > 0) {
    const wanted = page.map((s) => slotIndex[s]).sort((a, b) => a - b);
    let w = 0;
    timeline.sweep((i, view) => {
      if (i !== wanted[w]) return true;
      const entry = { optionalFree: [] as string[], optionalBusy: [] as string[] };
      for (const p of optional) {
        (view.isBlocked(p) ? entry.optionalBusy : entry.optionalFree).push(search.participants[p].id);
      }
      lists.set(i, entry);
      return ++w < wanted.length;
    });
  }
  return page.map((s) => {
    const start = startOf(slotIndex[s]);
    const entry = lists.get(slotIndex[s]) ?? { optionalFree: [], optionalBusy: [] };
    return { start, end: start + search.durationMs, ...entry };
  });
}

function explainAt(view: TimelineView, required: readonly number[], search: NormalizedSearch): Exclusion[] {
  const reasons: Exclusion[] = [];
  for (const p of required) {
    for (let r = 0; r < REASONS.length; r++) {
      if (view.hasReason(p, r)) reasons.push({ participant: search.participants[p].id, reason: REASONS[r] });
    }
  }
  return reasons;
}
