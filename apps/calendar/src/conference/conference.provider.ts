import { createHmac, randomBytes } from 'node:crypto';

/** A room as a provider makes it; the service adds when it was attached. */
export interface ConferenceRoom {
  provider: string;
  url: string;
  room_id: string;
}

/**
 * Who makes conference rooms. `createRoom` is called at most once per event that gets a room (the
 * event keeps the answer, so the room is attached idempotently); it must not block on a network call
 * that can hang, since it runs while the caller waits.
 */
export interface ConferenceProvider {
  readonly name: string;
  createRoom(eventId: string): Promise<ConferenceRoom>;
}

/**
 * Jitsi Meet: a room exists as soon as someone opens its URL, so no account or API call is needed. The
 * room name is the only secret protecting the meeting: 160 random bits, base64url (27 characters,
 * URL-safe), after a readable prefix.
 */
export class JitsiConferenceProvider implements ConferenceProvider {
  readonly name = 'jitsi';
  private readonly base: string;

  constructor(baseUrl: string) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  async createRoom(): Promise<ConferenceRoom> {
    const roomId = `Meet-${randomBytes(20).toString('base64url')}`;
    return { provider: this.name, url: `${this.base}/${roomId}`, room_id: roomId };
  }
}

/** Fixed and public on purpose: stub rooms are for tests and stub mode, never a real meeting. */
const STUB_KEY = 'calendar-conference-stub';

/**
 * Deterministic rooms for tests and stub mode: the same event always gets the same room, on a domain
 * that cannot resolve (.invalid, RFC 2606).
 */
export class StubConferenceProvider implements ConferenceProvider {
  readonly name = 'stub';

  async createRoom(eventId: string): Promise<ConferenceRoom> {
    const roomId = `stub-${createHmac('sha256', STUB_KEY).update(eventId).digest('base64url').slice(0, 22)}`;
    return { provider: this.name, url: `https://stub.conference.invalid/${roomId}`, room_id: roomId };
  }
}

export function conferenceProvider(cfg: {
  CALENDAR_CONFERENCE_PROVIDER: 'jitsi' | 'stub';
  CALENDAR_JITSI_BASE_URL: string;
}): ConferenceProvider {
  return cfg.CALENDAR_CONFERENCE_PROVIDER === 'stub'
    ? new StubConferenceProvider()
    : new JitsiConferenceProvider(cfg.CALENDAR_JITSI_BASE_URL);
}
