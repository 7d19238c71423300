import { DAY_MS } from '@platform/time';
import type { Budget } from './rule-expander';
import { RuleStream } from './rule-stream';
import type { CompiledRecurrence, CompiledRule } from './series.compiler';

const synced = new WeakMap<CompiledRecurrence, boolean>();

/** Does some RRULE produce DTSTART? Only the first period of each rule needs looking at. */
function startIsRuleInstance(c: CompiledRecurrence, budget: Budget): boolean {
  let known = synced.get(c);
  if (known === undefined) {
    known = c.rules.some((r) => {
      const s = new RuleStream(r.rule, {
        zone: c.zone,
        startWallMs: c.startWallMs,
        startInstantMs: c.startKey,
        until: r.until,
        seedStart: false,
        hintWallMs: c.startWallMs,
        horizonWallMs: c.startWallMs,
        budget,
      });
      return s.next() && s.instantMs === c.startKey;
    });
    if (!budget.stopped) synced.set(c, known);
  }
  return known;
}

/**
 * The recurrence set of RFC 5545 3.8.5: DTSTART, every RRULE's and RDATE's instances, minus EXDATE
 * and EXRULE instances, ascending and distinct by key (the instant; the wall midnight for all-day
 * series). Overrides are applied by the caller.
 */
export class SetIterator {
  key = NaN;
  wallMs = NaN;
  /** RDATE;VALUE=PERIOD's own end, else null. */
  endKey: number | null = null;

  private readonly rules: RuleStream[];
  private readonly ruleHead: number[];
  private readonly exrules: RuleStream[];
  private readonly exHead: number[];
  private rdateAt = 0;
  private startPending: boolean;
  private lastKey = -Infinity;
  /** An EXRULE stream was cut by a guard: whether later keys are excluded cannot be known. */
  private exclusionUnknown = false;

  constructor(
    private readonly c: CompiledRecurrence,
    hintWallMs: number,
    horizonWallMs: number,
    private readonly budget: Budget,
  ) {
    const stream = (r: CompiledRule, seedStart: boolean) =>
      new RuleStream(r.rule, {
        zone: c.zone,
        startWallMs: c.startWallMs,
        startInstantMs: c.startKey,
        until: r.until,
        seedStart,
        hintWallMs,
        horizonWallMs,
        budget,
      });
    // DTSTART is the first instance and counts toward each rule's COUNT (RFC 5545 3.3.10). When some
    // RRULE makes DTSTART itself it is counted there already, and no other rule pays for it.
    const seed = !startIsRuleInstance(c, budget);
    this.rules = c.rules.map((r) => stream(r, seed));
    this.exrules = c.exrules.map((r) => stream(r, false));
    this.ruleHead = this.rules.map((s) => (s.next() ? s.instantMs : Infinity));
    this.exHead = this.exrules.map((s) => (s.next() ? s.instantMs : Infinity));
    this.exclusionUnknown = budget.stopped !== null && this.exHead.includes(Infinity);
    // Without RRULE the set is DTSTART and the RDATEs; with one, each stream starts with DTSTART.
    this.startPending = this.rules.length === 0;
  }

  next(): boolean {
    for (;;) {
      if (this.exclusionUnknown) return false;
      let best = Infinity;
      for (const h of this.ruleHead) if (h < best) best = h;
      if (this.startPending && this.c.startKey < best) best = this.c.startKey;
      const rd = this.c.rdates[this.rdateAt];
      if (rd && rd.key < best) best = rd.key;
      if (best === Infinity) return false;

      let wall = NaN;
      let endKey: number | null = null;
      for (let i = 0; i < this.rules.length; i++) {
        if (this.ruleHead[i] === best) {
          wall = this.rules[i].wallMs;
          const s = this.rules[i];
          this.ruleHead[i] = s.next() ? s.instantMs : Infinity;
        }
      }
      if (this.startPending && this.c.startKey === best) {
        wall = this.c.startWallMs;
        this.startPending = false;
      }
      while (this.rdateAt < this.c.rdates.length && this.c.rdates[this.rdateAt].key === best) {
        const r = this.c.rdates[this.rdateAt++];
        if (Number.isNaN(wall)) wall = r.wallMs;
        if (r.endKey !== null) endKey = r.endKey;
      }
      if (best === this.lastKey) continue;
      this.lastKey = best;
      if (this.excluded(best)) continue;
      if (this.exclusionUnknown) return false;
      this.key = best;
      this.wallMs = wall;
      this.endKey = endKey;
      return true;
    }
  }

  private excluded(key: number): boolean {
    const c = this.c;
    if (c.exKeys.has(key)) return true;
    if (c.exDays.size && c.exDays.has(Math.floor((key + c.zone.offsetAt(key)) / DAY_MS))) return true;
    for (let i = 0; i < this.exrules.length; i++) {
      while (this.exHead[i] < key) {
        const s = this.exrules[i];
        this.exHead[i] = s.next() ? s.instantMs : Infinity;
        if (this.exHead[i] === Infinity && this.budget.stopped) this.exclusionUnknown = true;
      }
      if (this.exHead[i] === key) return true;
    }
    return false;
  }
}
