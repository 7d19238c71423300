import { OutboxFillfactor1763740000000 } from './1763740000000-outbox-fillfactor';
import { InitCalendar1763701000000 } from './1763701000000-init-calendar';
import { EventContract1763710000000 } from './1763710000000-event-contract';
import { GrantsTeams1763711000000 } from './1763711000000-grants-teams';
import { LimitsRequestLog1763712000000 } from './1763712000000-limits-request-log';
import { JournalCursorAtCommit1763713000000 } from './1763713000000-journal-cursor-at-commit';
import { TextLengthChecks1763714000000 } from './1763714000000-text-length-checks';
import { SharedKeyTable1763720000000 } from './1763720000000-shared-key-table';
import { EventsEndTimeIndex1763730000000 } from './1763730000000-events-end-time-index';
import { EventsPeriodIndex1763745000000 } from './1763745000000-events-period-index';
import { ConferenceAndAttendees1763750000000 } from './1763750000000-conference-and-attendees';
import { RecurrenceOverrides1763760000000 } from './1763760000000-recurrence-overrides';
import { EventTransparency1763770000000 } from './1763770000000-event-transparency';
import { OutboxTraceContext1764100000000 } from './1764100000000-outbox-trace-context';
import { TenantIsolation1764300000000 } from './1764300000000-tenant-isolation';
import { IcsFeedTokens1764400000000 } from './1764400000000-ics-feed-tokens';
import { Caldav1764400100000 } from './1764400100000-caldav';
import { AppPasswords1764400050000 } from './1764400050000-app-passwords';
import { JournalKinds1764500000000 } from './1764500000000-journal-kinds';

/** Listed as classes, in order: the build never globs for migrations. */
export const CALENDAR_MIGRATIONS = [
  InitCalendar1763701000000,
  EventContract1763710000000,
  GrantsTeams1763711000000,
  LimitsRequestLog1763712000000,
  JournalCursorAtCommit1763713000000,
  TextLengthChecks1763714000000,
  SharedKeyTable1763720000000,
  EventsEndTimeIndex1763730000000,
  OutboxFillfactor1763740000000,
  EventsPeriodIndex1763745000000,
  ConferenceAndAttendees1763750000000,
  RecurrenceOverrides1763760000000,
  EventTransparency1763770000000,
  OutboxTraceContext1764100000000,
  TenantIsolation1764300000000,
  IcsFeedTokens1764400000000,
  AppPasswords1764400050000,
  Caldav1764400100000,
  JournalKinds1764500000000,
];
