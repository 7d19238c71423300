import type { BusyInterval, TimeRange } from './intervals';
import type { WorkingHours } from './working-hours';

export type ParticipantKind = 'person' | 'resource';

export interface SlotParticipant {
  /** Unique within the request; echoed in `optionalFree`, `optionalBusy` and `excluded`. */
  id: string;
  /** Informational: persons and resources are treated alike (a resource usually has no working hours). */
  kind: ParticipantKind;
  /** A required participant must be free for a slot to exist; an optional one only affects the ranking. */
  required: boolean;
  /**
   * Busy time, in any order, overlapping or not (normalized as `mergeBusy` does). It is used as given,
   * not cut to the range: load it for [from - bufferBefore, to + bufferAfter) so buffers at the range
   * edges see it.
   */
  busy: readonly BusyInterval[];
  /** Absent or null: available around the clock. */
  workingHours?: WorkingHours | null;
}

export interface FindSlotsRequest {
  participants: readonly SlotParticipant[];
  /** Length of the meeting, whole minutes. */
  durationMinutes: number;
  /** Slots lie wholly inside [from, to). */
  range: TimeRange;
  /** Step between candidate starts, whole minutes: at least 5 and a divisor of 1440. */
  granularityMinutes: number;
  /** Page size for `slots` (and for `excluded` when `explain`). */
  maxResults: number;
  /** Free time needed before the meeting (travel, preparation). Default 0. */
  bufferBeforeMinutes?: number;
  /** Free time needed after the meeting. Default 0. */
  bufferAfterMinutes?: number;
  /** Treat tentative time as free, for every participant. Default false: tentative blocks like busy. */
  tentativeAsFree?: boolean;
  /** Also return the rejected candidate starts and why. Default false. */
  explain?: boolean;
  /** `nextCursor` of the previous page; absent or null for the first page. */
  cursor?: string | null;
}

export interface Slot {
  start: number;
  /** `start + durationMinutes` (buffers are not part of the slot). */
  end: number;
  /** Optional participants free for the slot and its buffers, within their working hours; input order. */
  optionalFree: string[];
  /** The other optional participants (busy, tentative or outside their working hours); input order. */
  optionalBusy: string[];
}

export type ExclusionReason = 'outside_working_hours' | 'busy' | 'tentative';

export interface Exclusion {
  participant: string;
  reason: ExclusionReason;
}

export interface ExcludedCandidate {
  start: number;
  end: number;
  /**
   * Every (required participant, reason) that rules the start out, by participant in input order, then
   * `outside_working_hours`, `busy`, `tentative`. Optional participants never exclude a start.
   */
  reasons: Exclusion[];
}

export interface FindSlotsResult {
  /** This page of slots, in ranking order. */
  slots: Slot[];
  /** All slots of the search (every page). */
  totalSlots: number;
  /** Pass as `cursor` for the next page; null when both lists are exhausted. */
  nextCursor: string | null;
  /** With `explain`: this page of rejected starts, earliest first. */
  excluded?: ExcludedCandidate[];
  /** With `explain`: all rejected starts of the search. */
  totalExcluded?: number;
}
