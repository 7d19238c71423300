import { RecurrenceError, RecurrenceErrorCode as C, RecurrenceReason as R } from './recurrence.errors';
import type { BusyInterval, InstantInput, RecurrenceSeries, StopReason } from './recurrence.types';
import { RangeWalker, floatingZone, newBudget, parseInstant } from './range-walker';
import { compileRecurrence, isCompiled, type CompiledRecurrence } from './series.compiler';

export interface IntervalOptions {
  from: InstantInput;
  to: InstantInput;
  /** The zone all-day dates are read in (default UTC). */
  floatingTimeZone?: string;
  /** Per series (default 500,000). */
  maxIterations?: number;
}

/**
 * Start and end instants (epoch ms) of every occurrence overlapping [from, to), in start order,
 * overrides applied. No strings are built, so it suits free/busy over many series; compile each
 * series once (`compileRecurrence`) and reuse it. The generator's return value says whether a guard
 * stopped it early.
 */
export function* occurrenceIntervals(
  series: RecurrenceSeries | CompiledRecurrence,
  options: IntervalOptions,
): Generator<BusyInterval, StopReason | null, undefined> {
  const c = isCompiled(series) ? series : compileRecurrence(series);
  const from = parseInstant(options.from, 'from');
  const to = parseInstant(options.to, 'to');
  if (!(from < to))
    throw new RecurrenceError(C.INVALID_RANGE, R.OUT_OF_RANGE, { part: 'from must be before to' });
  const budget = newBudget(options.maxIterations);
  const walker = new RangeWalker(c, from, to, floatingZone(options.floatingTimeZone), null, budget);
  for (let item = walker.next(); item; item = walker.next()) yield { start: item.start, end: item.end };
  return budget.stopped;
}

export interface BusyOptions extends IntervalOptions {
  /** At most this many intervals per series (default 10,000); more marks the series truncated. */
  maxPerSeries?: number;
}

export interface BusyResult {
  /** Sorted by start; `series` is the index in the input list. */
  intervals: Array<BusyInterval & { series: number }>;
  /** Series whose list was cut (maxPerSeries, or a guard): their busy time may be incomplete. */
  truncated: Array<{ series: number; reason: StopReason | 'MAX_PER_SERIES' }>;
}

/** Occurrence intervals of many series in one sorted list, each series bounded. */
export function busyIntervals(
  seriesList: ReadonlyArray<RecurrenceSeries | CompiledRecurrence>,
  options: BusyOptions,
): BusyResult {
  const max = options.maxPerSeries ?? 10_000;
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new RecurrenceError(C.INVALID_RANGE, R.OUT_OF_RANGE, { part: `maxPerSeries=${String(max)}` });
  }
  const result: BusyResult = { intervals: [], truncated: [] };
  seriesList.forEach((series, index) => {
    const gen = occurrenceIntervals(series, options);
    let n = 0;
    for (;;) {
      const step = gen.next();
      if (step.done) {
        if (step.value) result.truncated.push({ series: index, reason: step.value });
        break;
      }
      if (n === max) {
        result.truncated.push({ series: index, reason: 'MAX_PER_SERIES' });
        break;
      }
      result.intervals.push({ ...step.value, series: index });
      n++;
    }
  });
  result.intervals.sort((a, b) => a.start - b.start || a.series - b.series);
  return result;
}
