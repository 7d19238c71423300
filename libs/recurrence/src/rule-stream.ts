import { DAY_MS } from '@platform/time';
import { PeriodWalker, type Budget, type ExpandedRule } from './rule-expander';
import { MAX_OFFSET_MS, type Zone } from '@platform/time';

/** UNTIL, already read against the series start: a wall-time bound or an instant bound. */
export type UntilBound = { kind: 'wall'; wallMs: number } | { kind: 'instant'; ms: number };

export interface RuleStreamOptions {
  zone: Zone;
  startWallMs: number;
  startInstantMs: number;
  until: UntilBound | null;
  /** RRULE: DTSTART is the first instance and counts toward COUNT. EXRULE: plain rule. */
  seedStart: boolean;
  /** Candidates before this wall time are not needed (ignored when the rule has COUNT). */
  hintWallMs: number;
  /** No candidate after this wall time is needed. */
  horizonWallMs: number;
  budget: Budget;
}

/**
 * One rule's instances as instants, ascending and distinct, COUNT and UNTIL applied. Candidates are
 * made in wall time and converted (RFC 5545 3.3.5); a nonexistent wall time moves forward by the gap,
 * so instants can come out of order (02:30 in a spring-forward gap is 03:30, after 03:00). A small
 * buffer holds each instant until no later wall time can map before it.
 */
export class RuleStream {
  wallMs = NaN;
  instantMs = NaN;
  private readonly walker: PeriodWalker;
  private readonly bufWall: number[] = [];
  private readonly bufInst: number[] = [];
  private head = 0;
  private threshold = -Infinity;
  private lastEmitted = -Infinity;
  private countLeft: number;
  private generating = true;
  private readonly untilUpperWall: number;
  private readonly untilInstant: number;

  constructor(
    rule: ExpandedRule,
    private readonly o: RuleStreamOptions,
  ) {
    this.walker = new PeriodWalker(
      rule,
      o.startWallMs,
      Math.min(o.horizonWallMs, this.untilWall()),
      o.budget,
      o.hintWallMs,
    );
    this.countLeft = rule.count ?? Infinity;
    this.untilUpperWall = this.untilWall();
    this.untilInstant = o.until?.kind === 'instant' ? o.until.ms : Infinity;
    if (o.seedStart) {
      this.bufWall.push(o.startWallMs);
      this.bufInst.push(o.startInstantMs);
    }
  }

  private untilWall(): number {
    const u = this.o.until;
    if (!u) return Infinity;
    return u.kind === 'wall' ? u.wallMs : u.ms + MAX_OFFSET_MS;
  }

  next(): boolean {
    const zone = this.o.zone;
    for (;;) {
      if (this.countLeft <= 0) return false;
      if (this.head < this.bufInst.length && (!this.generating || this.bufInst[this.head] < this.threshold)) {
        const inst = this.bufInst[this.head];
        const wall = this.bufWall[this.head];
        this.head++;
        if (this.head > 256 && this.head * 2 > this.bufInst.length) {
          this.bufInst.splice(0, this.head);
          this.bufWall.splice(0, this.head);
          this.head = 0;
        }
        if (inst === this.lastEmitted) continue;
        this.lastEmitted = inst;
        this.countLeft--;
        this.wallMs = wall;
        this.instantMs = inst;
        return true;
      }
      if (!this.generating) return false;
      const w = this.walker.next();
      if (Number.isNaN(w) || w > this.untilUpperWall) {
        this.generating = false;
        continue;
      }
      if (w < this.o.startWallMs) continue;
      const inst = zone.toInstant(w);
      // Nothing precedes DTSTART, in wall time or (a start stored as the second 02:30 of a fall-back
      // night, whose wall time reads as the first) as an instant.
      if (inst > this.untilInstant || inst < this.o.startInstantMs) continue;
      this.insert(w, inst);
      this.threshold = zone.fixed
        ? Infinity
        : w - Math.max(zone.offsetAt(w - 2 * DAY_MS), zone.offsetAt(w + 2 * DAY_MS));
    }
  }

  private insert(wall: number, inst: number): void {
    const bi = this.bufInst;
    const bw = this.bufWall;
    let i = bi.length;
    bi.push(inst);
    bw.push(wall);
    while (i > this.head && bi[i - 1] > inst) {
      bi[i] = bi[i - 1];
      bw[i] = bw[i - 1];
      i--;
    }
    bi[i] = inst;
    bw[i] = wall;
  }
}
