/**
 * Properties of working hours and slot search, checked against brute-force oracles (fast-check).
 *
 * The oracles below work minute by minute, without the code under test: no sweep, no interval
 * arithmetic, their own Intl reading of the zone. They live in this spec file (not a shared helper) so
 * that no test code reaches the build, which compiles every non-spec file under src/. All times in
 * these tests are whole minutes.
 */
import fc from 'fast-check';
import { AvailabilityError } from './availability.errors';
import { findSlots } from './find-slots';
import type { BusyInterval, TimeRange } from './intervals';
import type {
  ExclusionReason,
  FindSlotsRequest,
  FindSlotsResult,
  SlotParticipant,
} from './slot-search.types';
import { WEEKDAYS, workingIntervals, type Weekday, type WorkingHours } from './working-hours';

// ---------------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------------
const z = (iso: string) => Date.parse(iso);
const span = (start: string, end: string) => ({ start, end });

/**
 * Zones with the instants just before their 2025 transitions: Berlin/London and New York (1 h),
 * Lord Howe (30 min), Chatham (+12:45/+13:45), Santiago (midnight skipped/repeated); zones without DST
 * get an ordinary Monday. A range starts within a day of its base and lasts up to two days, so it
 * usually contains the transition.
 */
const ZONE_CASES: readonly (readonly [string, readonly number[]])[] = [
  ['Europe/Berlin', ['2025-03-29T00:00Z', '2025-10-25T00:00Z']],
  ['Europe/London', ['2025-03-29T00:00Z', '2025-10-25T00:00Z']],
  ['America/New_York', ['2025-03-08T12:00Z', '2025-11-01T12:00Z']],
  ['Australia/Lord_Howe', ['2025-04-04T12:00Z', '2025-10-04T00:00Z']],
  ['Pacific/Chatham', ['2025-04-04T12:00Z', '2025-09-26T12:00Z']],
  ['America/Santiago', ['2025-04-05T00:00Z', '2025-09-06T12:00Z']],
  ['UTC', ['2025-06-16T00:00Z']],
  ['Asia/Almaty', ['2025-06-16T00:00Z']],
  ['Asia/Kolkata', ['2025-06-16T00:00Z']],
  ['Asia/Kathmandu', ['2025-06-16T00:00Z']],
].map(([zone, bases]) => [zone as string, (bases as string[]).map(z)] as const);

const ZONES = ZONE_CASES.map(([zone]) => zone);

/** A zone and one of its bases. */
const zoneAndBaseArb = fc
  .constantFrom(...ZONE_CASES)
  .chain(([zone, bases]) => fc.constantFrom(...bases).map((base) => ({ zone, base })));

/** Wall times where transitions happen, so that span ends often land in a gap or a repeated hour. */
const TRANSITION_MINUTES = [0, 60, 90, 120, 150, 165, 180, 225, 1380, 1410, 1440];

const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** Random valid working hours: per day 0-3 non-overlapping spans, minute resolution, ends up to 24:00. */
const workingHoursIn = (zoneArb: fc.Arbitrary<string>): fc.Arbitrary<WorkingHours> =>
  fc
    .record({
      timeZone: zoneArb,
      days: fc.tuple(
        ...WEEKDAYS.map(() =>
          fc
            .uniqueArray(
              fc.oneof(fc.integer({ min: 0, max: 1440 }), fc.constantFrom(...TRANSITION_MINUTES)),
              {
                maxLength: 6,
              },
            )
            .map((points) => {
              const sorted = [...points].sort((a, b) => a - b);
              const spans = [];
              for (let i = 0; i + 1 < sorted.length; i += 2)
                spans.push(span(hhmm(sorted[i]), hhmm(sorted[i + 1])));
              return spans;
            }),
        ),
      ),
    })
    .map(({ timeZone, days }) => ({
      timeZone,
      days: Object.fromEntries(WEEKDAYS.map((d, i) => [d, days[i]])) as Record<
        Weekday,
        { start: string; end: string }[]
      >,
    }));

// ---------------------------------------------------------------------------------------------------
// Oracles
// ---------------------------------------------------------------------------------------------------
const MIN = 60_000;
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

const offsetCache = new Map<string, number>();
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset in minutes at a UTC minute, read from Intl's wall clock. */
function offsetAt(zone: string, minute: number): number {
  const key = `${zone}|${minute}`;
  const hit = offsetCache.get(key);
  if (hit !== undefined) return hit;
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(minute * MIN).map((p) => [p.type, p.value]));
  const wall =
    Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour) % 24,
      Number(parts.minute),
    ) / MIN;
  const offset = wall - minute;
  offsetCache.set(key, offset);
  return offset;
}

/** Offsets minute by minute; Intl is asked once an hour and every minute of an hour whose ends differ. */
function wallMinutes(zone: string, fromMinute: number, toMinute: number): Int32Array {
  const out = new Int32Array(toMinute - fromMinute);
  for (let h = fromMinute - (((fromMinute % 60) + 60) % 60); h < toMinute; h += 60) {
    const a = offsetAt(zone, h);
    const b = offsetAt(zone, h + 60);
    for (let m = Math.max(h, fromMinute); m < Math.min(h + 60, toMinute); m++) {
      out[m - fromMinute] = m + (a === b ? a : offsetAt(zone, m));
    }
  }
  return out;
}

/**
 * 1 for each UTC minute of [range.from, range.to) that is working time: the minute lies in [start, end)
 * of some span placed on some local date, where a wall time maps to its first occurrence and a skipped
 * one to (last minute before the gap) + (distance on the wall clock), i.e. the offset before the gap.
 */
function bruteWorkingMinutes(hours: WorkingHours, range: TimeRange): Uint8Array {
  const from = range.from / MIN;
  const to = range.to / MIN;
  const margin = 3 * 1440;
  const walls = wallMinutes(hours.timeZone, from - margin, to + margin);
  const instantOf = new Map<number, number>();
  for (let k = 0; k < walls.length; k++) {
    const w = walls[k];
    if (k > 0 && w > walls[k - 1] + 1) {
      for (let g = walls[k - 1] + 1; g < w; g++) {
        if (!instantOf.has(g)) instantOf.set(g, from - margin + k - 1 + (g - walls[k - 1]));
      }
    }
    if (!instantOf.has(w)) instantOf.set(w, from - margin + k);
  }
  const out = new Uint8Array(to - from);
  const firstDay = Math.floor(walls[margin] / 1440) - 1;
  const lastDay = Math.floor(walls[margin + (to - from)] / 1440) + 1;
  for (let day = firstDay; day <= lastDay; day++) {
    const weekday = DAYS[new Date(day * 1440 * MIN).getUTCDay()];
    for (const span of hours.days[weekday] ?? []) {
      const s = instantOf.get(day * 1440 + toMinutes(span.start));
      const e = instantOf.get(day * 1440 + toMinutes(span.end));
      if (s === undefined || e === undefined) throw new Error('oracle window too small');
      for (let m = Math.max(s, from); m < Math.min(e, to); m++) out[m - from] = 1;
    }
  }
  return out;
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

interface BruteCandidate {
  start: number;
  /** Per participant (input order): the reasons it cannot attend; empty = free. */
  reasons: ExclusionReason[][];
}

/** Every aligned candidate of the request with every participant's reasons, chronologically. */
function bruteCandidates(req: FindSlotsRequest): BruteCandidate[] {
  const g = req.granularityMinutes;
  const d = req.durationMinutes;
  const before = req.bufferBeforeMinutes ?? 0;
  const after = req.bufferAfterMinutes ?? 0;
  const from = req.range.from / MIN;
  const to = req.range.to / MIN;
  const lo = from - before - 1;
  const hi = to + after + 1;
  const perParticipant = req.participants.map((p) => participantMinutes(p, lo, hi, req));
  const out: BruteCandidate[] = [];
  for (let s = Math.ceil(from / g) * g; s + d <= to; s += g) {
    const reasons = perParticipant.map(({ busy, tentative, working }) => {
      const r: ExclusionReason[] = [];
      if (working && sum(working, s - lo, s + d - lo) < d) r.push('outside_working_hours');
      if (sum(busy, s - before - lo, s + d + after - lo) > 0) r.push('busy');
      if (tentative && sum(tentative, s - before - lo, s + d + after - lo) > 0) r.push('tentative');
      return r;
    });
    out.push({ start: s * MIN, reasons });
  }
  return out;
}

/** Prefix sums of per-minute flags over [lo, hi): busy, tentative-and-not-busy, working. */
function participantMinutes(p: SlotParticipant, lo: number, hi: number, req: FindSlotsRequest) {
  const mark = (list: readonly BusyInterval[], kind: string) => {
    const flags = new Uint8Array(hi - lo);
    for (const iv of list) {
      if (iv.kind !== kind) continue;
      for (let m = Math.max(iv.start / MIN, lo); m < Math.min(iv.end / MIN, hi); m++) flags[m - lo] = 1;
    }
    return flags;
  };
  const busy = mark(p.busy, 'busy');
  const tentative = req.tentativeAsFree ? null : mark(p.busy, 'tentative').map((t, i) => (busy[i] ? 0 : t));
  let working: Uint8Array | null = null;
  if (p.workingHours) {
    // Only the slot (not the buffers) needs working time; minutes outside the range never count.
    const inRange = bruteWorkingMinutes(p.workingHours, req.range);
    working = new Uint8Array(hi - lo);
    working.set(inRange, req.range.from / MIN - lo);
  }
  return {
    busy: prefix(busy),
    tentative: tentative && prefix(tentative),
    working: working && prefix(working),
  };
}

function prefix(flags: Uint8Array): Int32Array {
  const out = new Int32Array(flags.length + 1);
  for (let i = 0; i < flags.length; i++) out[i + 1] = out[i] + flags[i];
  return out;
}

const sum = (p: Int32Array, a: number, b: number) => p[b] - p[a];

// ---------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------

describe('workingIntervals against a minute-by-minute oracle', () => {
  it('property: the same minutes are working time, in every zone, around every kind of transition', () => {
    fc.assert(
      fc.property(
        zoneAndBaseArb.chain(({ zone, base }) =>
          workingHoursIn(fc.constant(zone)).map((hours) => ({ hours, base })),
        ),
        fc.integer({ min: 0, max: 1440 }),
        fc.integer({ min: 1, max: 2 * 1440 }),
        ({ hours, base }, offset, length) => {
          const range = { from: base + offset * 60_000, to: base + (offset + length) * 60_000 };
          const flags = bruteWorkingMinutes(hours, range);
          const got = new Uint8Array(length);
          for (const w of workingIntervals(hours, range)) {
            for (let t = w.start; t < w.end; t += 60_000) got[(t - range.from) / 60_000] = 1;
          }
          const differ = [];
          for (let m = 0; m < length; m++)
            if (got[m] !== flags[m]) differ.push(new Date(range.from + m * 60_000).toISOString());
          expect(differ.slice(0, 5)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/**
 * Small searches (up to 36 h, so at most 432 candidates and one call of 500 holds them all) around DST
 * transitions, with up to four participants in random zones, minute-resolution busy time that spills
 * over the range edges, random buffers, steps and durations.
 */
const requestArb: fc.Arbitrary<FindSlotsRequest> = zoneAndBaseArb.chain(({ zone, base }) =>
  fc
    .record({
      offset: fc.integer({ min: 0, max: 1440 }),
      length: fc.integer({ min: 1, max: 36 * 60 }),
      durationMinutes: fc.oneof(fc.constantFrom(15, 30, 60), fc.integer({ min: 1, max: 180 })),
      granularityMinutes: fc.constantFrom(5, 10, 15, 30, 60),
      bufferBeforeMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30 })),
      bufferAfterMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30 })),
      tentativeAsFree: fc.boolean(),
      participants: fc.array(
        fc.record({
          required: fc.boolean(),
          kind: fc.constantFrom<'person' | 'resource'>('person', 'resource'),
          busy: fc.array(
            fc.record({
              at: fc.integer({ min: -120, max: 36 * 60 + 120 }),
              len: fc.integer({ min: 1, max: 240 }),
              kind: fc.constantFrom<'busy' | 'tentative'>('busy', 'tentative'),
            }),
            { maxLength: 6 },
          ),
          workingHours: fc.option(workingHoursIn(fc.oneof(fc.constant(zone), fc.constantFrom(...ZONES))), {
            nil: undefined,
          }),
        }),
        { minLength: 1, maxLength: 4 },
      ),
    })
    .map((r): FindSlotsRequest => {
      const from = base + r.offset * MIN;
      return {
        range: { from, to: from + r.length * MIN },
        durationMinutes: r.durationMinutes,
        granularityMinutes: r.granularityMinutes,
        bufferBeforeMinutes: r.bufferBeforeMinutes,
        bufferAfterMinutes: r.bufferAfterMinutes,
        tentativeAsFree: r.tentativeAsFree,
        maxResults: 500,
        participants: r.participants.map((p, i): SlotParticipant => ({
          id: `p${i}`,
          kind: p.kind,
          required: p.required,
          busy: p.busy.map((b): BusyInterval => ({
            start: from + b.at * MIN,
            end: from + (b.at + b.len) * MIN,
            kind: b.kind,
          })),
          workingHours: p.workingHours,
        })),
      };
    }),
);

const overlaps = (a0: number, a1: number, b0: number, b1: number) => a0 < b1 && b0 < a1;

/** Every page, following nextCursor; fails on a cursor loop. */
function allPages(req: FindSlotsRequest): FindSlotsResult[] {
  const pages = [findSlots(req)];
  while (pages[pages.length - 1].nextCursor !== null) {
    if (pages.length > 1000) throw new Error('pagination does not end');
    pages.push(findSlots({ ...req, cursor: pages[pages.length - 1].nextCursor }));
  }
  return pages;
}

const runs = { numRuns: 150 };

describe('findSlots properties (fast-check)', () => {
  it('no slot, with its buffers, overlaps busy (or counted tentative) time of a required participant', () => {
    fc.assert(
      fc.property(requestArb, (req) => {
        const before = (req.bufferBeforeMinutes ?? 0) * MIN;
        const after = (req.bufferAfterMinutes ?? 0) * MIN;
        const clashes = [];
        for (const slot of findSlots(req).slots) {
          for (const p of req.participants.filter((q) => q.required)) {
            for (const b of p.busy) {
              if (b.kind === 'tentative' && req.tentativeAsFree) continue;
              if (overlaps(slot.start - before, slot.end + after, b.start, b.end))
                clashes.push([slot.start, p.id, b]);
            }
          }
        }
        expect(clashes).toEqual([]);
      }),
      runs,
    );
  });

  it('every slot lies within every required participant`s working hours', () => {
    fc.assert(
      fc.property(requestArb, (req) => {
        const outside = [];
        const result = findSlots(req);
        for (const p of req.participants) {
          if (!p.required || !p.workingHours) continue;
          const working = bruteWorkingMinutes(p.workingHours, req.range);
          for (const slot of result.slots) {
            for (let t = slot.start; t < slot.end; t += MIN) {
              if (!working[(t - req.range.from) / MIN]) outside.push([p.id, new Date(t).toISOString()]);
            }
          }
        }
        expect(outside.slice(0, 5)).toEqual([]);
      }),
      runs,
    );
  });

  it('every slot lies in the range, on the UTC grid, with the exact duration', () => {
    fc.assert(
      fc.property(requestArb, (req) => {
        const g = req.granularityMinutes * MIN;
        const bad = findSlots(req).slots.filter(
          (s) =>
            s.start < req.range.from ||
            s.end > req.range.to ||
            s.end - s.start !== req.durationMinutes * MIN ||
            s.start % g !== 0,
        );
        expect(bad).toEqual([]);
      }),
      runs,
    );
  });

  it('finds exactly the aligned starts the brute-force oracle finds, with the same optional lists', () => {
    fc.assert(
      fc.property(requestArb, (req) => {
        const ids = req.participants.map((p) => p.id);
        const expected = bruteCandidates(req)
          .filter((c) => c.reasons.every((r, i) => r.length === 0 || !req.participants[i].required))
          .map((c) => ({
            start: c.start,
            optionalFree: ids.filter((_, i) => !req.participants[i].required && c.reasons[i].length === 0),
            optionalBusy: ids.filter((_, i) => !req.participants[i].required && c.reasons[i].length > 0),
          }));
        const result = findSlots(req);
        const got = result.slots
          .map((s) => ({ start: s.start, optionalFree: s.optionalFree, optionalBusy: s.optionalBusy }))
          .sort((a, b) => a.start - b.start);
        expect(got).toEqual(expected);
        expect(result.totalSlots).toBe(expected.length);
      }),
      runs,
    );
  });

  it('ranks by optional participants free (descending), then by start', () => {
    fc.assert(
      fc.property(requestArb, (req) => {
        const slots = findSlots(req).slots;
        const unordered = slots.filter((s, i) => {
          if (i === 0) return false;
          const p = slots[i - 1];
          return !(
            p.optionalFree.length > s.optionalFree.length ||
            (p.optionalFree.length === s.optionalFree.length && p.start < s.start)
          );
        });
        expect(unordered).toEqual([]);
      }),
      runs,
    );
  });

  it('explains every rejected start exactly as the oracle does (required participants, all reasons)', () => {
    fc.assert(
      fc.property(requestArb, (req) => {
        const expected = bruteCandidates(req)
          .map((c) => ({
            start: c.start,
            reasons: c.reasons.flatMap((rs, i) =>
              req.participants[i].required
                ? rs.map((reason) => ({ participant: req.participants[i].id, reason }))
                : [],
            ),
          }))
          .filter((c) => c.reasons.length > 0);
        const result = findSlots({ ...req, explain: true });
        expect(result.excluded?.map((e) => ({ start: e.start, reasons: e.reasons }))).toEqual(expected);
        expect(result.totalExcluded).toBe(expected.length);
        expect(result.excluded?.every((e) => e.end - e.start === req.durationMinutes * MIN)).toBe(true);
      }),
      runs,
    );
  });

  it('pages of any size, concatenated, equal one big call (slots and explanations)', () => {
    fc.assert(
      fc.property(requestArb, fc.integer({ min: 1, max: 7 }), fc.boolean(), (req, size, explain) => {
        const whole = findSlots({ ...req, explain });
        expect(whole.nextCursor).toBeNull();
        const pages = allPages({ ...req, explain, maxResults: size });
        expect(pages.flatMap((p) => p.slots)).toEqual(whole.slots);
        expect(pages.every((p) => p.slots.length <= size)).toBe(true);
        expect(pages.every((p) => p.totalSlots === whole.totalSlots)).toBe(true);
        if (explain) {
          expect(pages.flatMap((p) => p.excluded ?? [])).toEqual(whole.excluded);
          expect(pages.every((p) => (p.excluded ?? []).length <= size)).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('refuses corrupted requests with an AvailabilityError, never another error', () => {
    const fields = [
      'range',
      'participants',
      'durationMinutes',
      'granularityMinutes',
      'maxResults',
      'bufferBeforeMinutes',
      'bufferAfterMinutes',
      'tentativeAsFree',
      'explain',
      'cursor',
    ];
    const corrupt = fc.oneof(
      fc.anything(),
      fc.tuple(requestArb, fc.constantFrom(...fields), fc.anything()).map(([req, field, value]) => ({
        ...req,
        [field]: value,
      })),
      fc
        .tuple(requestArb, fc.constantFrom('id', 'kind', 'required', 'busy', 'workingHours'), fc.anything())
        .map(([req, field, value]) => ({
          ...req,
          participants: req.participants.map((p, i) => (i === 0 ? { ...p, [field]: value } : p)),
        })),
      fc.tuple(requestArb, fc.string({ maxLength: 40 })).map(([req, cursor]) => ({ ...req, cursor })),
    );
    fc.assert(
      fc.property(corrupt, (req) => {
        try {
          findSlots(req as FindSlotsRequest);
        } catch (e) {
          expect(e).toBeInstanceOf(AvailabilityError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
