import { normalizeBusy, type Interval, type TimeRange } from './intervals';
import type { NormalizedSearch } from './slot-request';
import type { ExclusionReason } from './slot-search.types';
import { scheduleIntervals, type WorkingSchedule } from './working-hours';

/**
 * The candidate starts of a search: `first + i * step` for i in [0, count). `first` is the first
 * multiple of the step (counted from the Unix epoch, i.e. from a UTC midnight, since the step divides a
 * day) at or after `range.from`; the last candidate still ends by `range.to`.
 */
export interface CandidateGrid {
  first: number;
  step: number;
  count: number;
  duration: number;
}

export function candidateGrid(range: TimeRange, durationMs: number, stepMs: number): CandidateGrid {
  const first = Math.ceil(range.from / stepMs) * stepMs;
  const count = first + durationMs > range.to ? 0 : Math.floor((range.to - durationMs - first) / stepMs) + 1;
  return { first, step: stepMs, count, duration: durationMs };
}

/** Reason order in explanations; a reason's index is part of the key (participant * 3 + reason). */
export const REASONS: readonly ExclusionReason[] = ['outside_working_hours', 'busy', 'tentative'];
const OUTSIDE = 0;
const BUSY = 1;
const TENTATIVE = 2;

/** What the sweep knows at one candidate. */
export interface TimelineView {
  /** Required participants ruled out at this candidate (any reason). Zero means the start is a slot. */
  readonly requiredBlocked: number;
  /** Optional participants not available at this candidate. */
  readonly optionalBlocked: number;
  /** Is participant `p` (index in the request) unavailable here? */
  isBlocked(p: number): boolean;
  /** Does `reason` (index into REASONS) apply to participant `p` here? */
  hasReason(p: number, reason: number): boolean;
}

/**
 * Each participant's unavailability, turned into ranges of candidate indices, then swept once from the
 * first candidate to the last. A busy interval [b0, b1) rules out the starts s whose window with
 * buffers, [s - before, s + duration + after), overlaps it: b0 - duration - after < s < b1 + before.
 * Working hours rule out the starts whose slot [s, s + duration) is not inside one working interval.
 *
 * Building is O(I log I) for I busy intervals (the per-participant normalization sorts), the sweep
 * O(I + C) for C candidates: the events are bucketed by candidate index (a counting sort), and the
 * per-candidate state (two counters) is kept up to date as ranges open and close, so no candidate is
 * compared with any interval.
 */
export class SlotTimeline implements TimelineView {
  private readonly eventStart: Int32Array;
  private readonly events: Int32Array;
  private readonly counter: Int32Array;
  private readonly activeReasons: Int32Array;
  private readonly required: boolean[];
  requiredBlocked = 0;
  optionalBlocked = 0;

  constructor(
    readonly grid: CandidateGrid,
    search: NormalizedSearch,
  ) {
    const ranges = blockedRanges(search, grid);
    const n = grid.count;
    // Counting sort of the open (at lo) and close (at hi) events by candidate index.
    const bucket = new Int32Array(n + 1);
    for (let r = 0; r < ranges.key.length; r++) {
      bucket[ranges.lo[r]]++;
      if (ranges.hi[r] < n) bucket[ranges.hi[r]]++;
    }
    this.eventStart = new Int32Array(n + 1);
    for (let i = 0, sum = 0; i < n; i++) {
      this.eventStart[i] = sum;
      sum += bucket[i];
      this.eventStart[i + 1] = sum;
    }
    this.events = new Int32Array(n > 0 ? this.eventStart[n] : 0);
    const fill = this.eventStart.slice(0, n);
    for (let r = 0; r < ranges.key.length; r++) {
      this.events[fill[ranges.lo[r]]++] = (ranges.key[r] << 1) | 1;
      if (ranges.hi[r] < n) this.events[fill[ranges.hi[r]]++] = ranges.key[r] << 1;
    }
    this.counter = new Int32Array(search.participants.length * REASONS.length);
    this.activeReasons = new Int32Array(search.participants.length);
    this.required = search.participants.map((p) => p.required);
  }

  isBlocked(p: number): boolean {
    return this.activeReasons[p] > 0;
  }

  hasReason(p: number, reason: number): boolean {
    return this.counter[p * REASONS.length + reason] > 0;
  }

  /**
   * Visits candidates 0, 1, ... in order with the state at each; `visit` returns false to stop early.
   * Each call starts from a clean state, so a timeline can be swept more than once.
   */
  sweep(visit: (index: number, view: TimelineView) => boolean | void): void {
    this.counter.fill(0);
    this.activeReasons.fill(0);
    this.requiredBlocked = 0;
    this.optionalBlocked = 0;
    for (let i = 0; i < this.grid.count; i++) {
      for (let e = this.eventStart[i]; e < this.eventStart[i + 1]; e++) this.apply(this.events[e]);
      if (visit(i, this) === false) return;
    }
  }

  private apply(event: number): void {
    const key = event >> 1;
    const p = (key / REASONS.length) | 0;
    let delta = 0;
    if (event & 1) {
      if (this.counter[key]++ === 0 && this.activeReasons[p]++ === 0) delta = 1;
    } else if (--this.counter[key] === 0 && --this.activeReasons[p] === 0) {
      delta = -1;
    }
    if (this.required[p]) this.requiredBlocked += delta;
    else this.optionalBlocked += delta;
  }
}

interface Ranges {
  lo: number[];
  hi: number[];
  key: number[];
}

/** The index ranges [lo, hi) of candidates each participant rules out, with the reason as the key. */
function blockedRanges(search: NormalizedSearch, grid: CandidateGrid): Ranges {
  const out: Ranges = { lo: [], hi: [], key: [] };
  if (grid.count === 0) return out;
  const { first, step, count, duration } = grid;
  const add = (lo: number, hi: number, key: number) => {
    const l = Math.max(lo, 0);
    const h = Math.min(hi, count);
    if (l < h) {
      out.lo.push(l);
      out.hi.push(h);
      out.key.push(key);
    }
  };
  const before = search.bufferBeforeMs;
  const after = search.bufferAfterMs;
  // Busy time outside every window (with buffers) cannot matter: cut it off before sorting.
  const reach: TimeRange = { from: first - before, to: first + (count - 1) * step + duration + after };
  const working = new Map<WorkingSchedule, Interval[]>();

  search.participants.forEach((p, pi) => {
    const base = pi * REASONS.length;
    // Normalized intervals come sorted by start, so the ranges of one reason come sorted by lo too:
    // overlapping ones (buffers widen them) are merged on the fly, which keeps the event list short.
    const open = [
      [0, 0],
      [0, 0],
    ];
    for (const iv of normalizeBusy(p.busy, reach)) {
      if (iv.kind === 'tentative' && search.tentativeAsFree) continue;
      const r = iv.kind === 'busy' ? BUSY : TENTATIVE;
      const lo = Math.floor((iv.start - duration - after - first) / step) + 1;
      const hi = Math.ceil((iv.end + before - first) / step);
      const cur = open[r - 1];
      if (lo <= cur[1] && cur[0] < cur[1]) {
        cur[1] = Math.max(cur[1], hi);
      } else {
        add(cur[0], cur[1], base + r);
        cur[0] = lo;
        cur[1] = hi;
      }
    }
    add(open[0][0], open[0][1], base + BUSY);
    add(open[1][0], open[1][1], base + TENTATIVE);

    if (p.schedule) {
      let intervals = working.get(p.schedule);
      if (!intervals) {
        intervals = scheduleIntervals(p.schedule, search.range);
        working.set(p.schedule, intervals);
      }
      // Allowed starts of a working interval [w0, w1): w0 <= s and s + duration <= w1. Rule out the rest.
      let from = 0;
      for (const w of intervals) {
        const lo = Math.ceil((w.start - first) / step);
        const hi = Math.floor((w.end - duration - first) / step) + 1;
        if (lo >= hi) continue;
        add(from, lo, base + OUTSIDE);
        from = Math.max(from, hi);
      }
      add(from, count, base + OUTSIDE);
    }
  });
  return out;
}
