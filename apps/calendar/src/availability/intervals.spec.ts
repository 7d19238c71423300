import fc from 'fast-check';
import { AvailabilityError, AvailabilityErrorReason as R } from './availability.errors';
import {
  freeBusy,
  intersectIntervals,
  mergeBusy,
  mergeIntervals,
  subtractIntervals,
  type BusyInterval,
  type Interval,
} from './intervals';

const T0 = Date.UTC(2025, 5, 16); // a Monday, 00:00Z
const M = 60_000;
const at = (minutes: number) => T0 + minutes * M;
const busy = (s: number, e: number): BusyInterval => ({ start: at(s), end: at(e), kind: 'busy' });
const tent = (s: number, e: number): BusyInterval => ({ start: at(s), end: at(e), kind: 'tentative' });
const range = (s: number, e: number) => ({ from: at(s), to: at(e) });

describe('mergeBusy', () => {
  it('merges overlapping and touching busy intervals, sorted', () => {
    expect(mergeBusy([busy(60, 120), busy(0, 30), busy(30, 45), busy(100, 150)], range(0, 1440))).toEqual([
      busy(0, 45),
      busy(60, 150),
    ]);
  });

  it('merges tentative among themselves and cuts them around busy (busy wins)', () => {
    const out = mergeBusy(
      [tent(0, 60), tent(50, 200), busy(90, 120), tent(130, 140), busy(190, 300)],
      range(0, 1440),
    );
    expect(out).toEqual([tent(0, 90), busy(90, 120), tent(120, 190), busy(190, 300)]);
  });

  it('drops a tentative interval inside a busy one, keeps touching ones of different kinds apart', () => {
    expect(mergeBusy([busy(0, 100), tent(10, 20), tent(100, 110)], range(0, 1440))).toEqual([
      busy(0, 100),
      tent(100, 110),
    ]);
  });

  it('clips to [from, to) and drops what lies outside or is empty', () => {
    expect(
      mergeBusy([busy(-50, 10), tent(20, 20), busy(1430, 1500), busy(2000, 2100)], range(0, 1440)),
    ).toEqual([busy(0, 10), busy(1430, 1440)]);
  });

  it.each([
    ['a range that is not an object', [], null, R.INVALID_RANGE],
    ['from >= to', [], { from: at(10), to: at(10) }, R.INVALID_RANGE],
    ['a fractional bound', [], { from: 1.5, to: at(10) }, R.INVALID_RANGE],
    ['a bound before 1970', [], { from: -1, to: at(10) }, R.INVALID_RANGE],
    ['end < start', [busy(10, 5)], range(0, 100), R.INVALID_INTERVAL],
    ['NaN', [{ start: NaN, end: at(1), kind: 'busy' }], range(0, 100), R.INVALID_INTERVAL],
    ['an unknown kind', [{ start: at(0), end: at(1), kind: 'free' }], range(0, 100), R.INVALID_INTERVAL],
    ['a list that is not an array', 'nope', range(0, 100), R.INVALID_INTERVAL],
  ])('refuses %s with a typed error', (_name, intervals, r, reason) => {
    const call = () => mergeBusy(intervals as BusyInterval[], r as { from: number; to: number });
    expect(call).toThrow(AvailabilityError);
    expect(call).toThrow(expect.objectContaining({ reason }));
  });

  // Minute-resolution model: what each minute of the range is, computed naively.
  const intervalArb = fc
    .record({
      s: fc.integer({ min: -30, max: 300 }),
      len: fc.integer({ min: 0, max: 80 }),
      kind: fc.constantFrom<'busy' | 'tentative'>('busy', 'tentative'),
    })
    .map(({ s, len, kind }): BusyInterval => ({ start: at(s), end: at(s + len), kind }));

  it('property: output equals the minute-by-minute model, sorted, disjoint, one kind, maximal', () => {
    fc.assert(
      fc.property(
        fc.array(intervalArb, { maxLength: 25 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 250 }),
        (list, from, len) => {
          const r = range(from, from + len);
          const out = mergeBusy(list, r);
          const model = (m: number) => {
            const t = at(m);
            const hit = (k: string) => list.some((iv) => iv.kind === k && iv.start <= t && t < iv.end);
            return hit('busy') ? 'busy' : hit('tentative') ? 'tentative' : 'free';
          };
          const got = (m: number) => out.find((iv) => iv.start <= at(m) && at(m) < iv.end)?.kind ?? 'free';
          const wrong = [];
          for (let m = from; m < from + len; m++) if (got(m) !== model(m)) wrong.push(m);
          expect(wrong).toEqual([]);
          for (let i = 0; i < out.length; i++) {
            expect(out[i].start).toBeLessThan(out[i].end);
            expect(out[i].start).toBeGreaterThanOrEqual(r.from);
            expect(out[i].end).toBeLessThanOrEqual(r.to);
            if (i > 0) {
              expect(out[i - 1].end).toBeLessThanOrEqual(out[i].start);
              // Touching intervals of the same kind would have been merged.
              if (out[i - 1].end === out[i].start) expect(out[i - 1].kind).not.toBe(out[i].kind);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('handles 200 participants x 30 days of meetings (60,000 intervals) in one pass each', () => {
    const month = { from: T0, to: T0 + 30 * 1440 * M };
    let seed = 42;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const participants = Array.from({ length: 200 }, (_, p) => ({
      id: `p${p}`,
      intervals: Array.from({ length: 300 }, (): BusyInterval => {
        const s = rnd(30 * 1440);
        return { start: at(s), end: at(s + 15 + rnd(120)), kind: rnd(4) === 0 ? 'tentative' : 'busy' };
      }),
    }));
    const out = freeBusy(participants, month);
    expect(out).toHaveLength(200);
    const unsorted = out.filter((p) =>
      p.intervals.some((iv, i) => i > 0 && p.intervals[i - 1].end > iv.start),
    );
    expect(unsorted).toEqual([]);
  });
});

describe('freeBusy', () => {
  it('answers per participant in input order', () => {
    expect(
      freeBusy(
        [
          { id: 'b', intervals: [busy(10, 20), busy(15, 30)] },
          { id: 'a', intervals: [] },
        ],
        range(0, 60),
      ),
    ).toEqual([
      { id: 'b', intervals: [busy(10, 30)] },
      { id: 'a', intervals: [] },
    ]);
  });

  it('refuses a participant without an id or with broken intervals, naming the field', () => {
    expect(() => freeBusy([{ id: 1 } as never], range(0, 60))).toThrow(
      expect.objectContaining({ reason: R.INVALID_PARTICIPANT, field: 'participants[0]' }),
    );
    expect(() => freeBusy([{ id: 'a', intervals: [busy(0, 1), busy(5, 2)] }], range(0, 60))).toThrow(
      expect.objectContaining({ reason: R.INVALID_INTERVAL, field: 'participants[0].intervals[1]' }),
    );
  });

  it('property: never throws anything but an AvailabilityError on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (participants, r) => {
        try {
          freeBusy(participants as never, r as never);
        } catch (e) {
          expect(e).toBeInstanceOf(AvailabilityError);
        }
      }),
    );
  });
});

describe('interval algebra', () => {
  const iv = (s: number, e: number): Interval => ({ start: s, end: e });
  const listArb = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1, max: 20 })), { maxLength: 10 })
    .map((xs) => mergeIntervals(xs.map(([s, l]) => iv(s, s + l))));
  const covers = (list: Interval[], x: number) => list.some((i) => i.start <= x && x < i.end);

  it('merges touching intervals', () => {
    expect(mergeIntervals([iv(5, 6), iv(0, 5), iv(7, 8)])).toEqual([iv(0, 6), iv(7, 8)]);
  });

  it('property: subtract and intersect agree with point membership', () => {
    fc.assert(
      fc.property(listArb, listArb, (a, b) => {
        const diff = subtractIntervals(a, b);
        const both = intersectIntervals(a, b);
        const wrong = [];
        for (let x = 0; x < 125; x++) {
          if (covers(diff, x) !== (covers(a, x) && !covers(b, x))) wrong.push(['diff', x]);
          if (covers(both, x) !== (covers(a, x) && covers(b, x))) wrong.push(['both', x]);
        }
        expect(wrong).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
