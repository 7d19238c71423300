import { loadConfig } from '@platform/config';
import { CalendarConfig, DEV_RSVP_SECRET } from './calendar.config';

describe('CalendarConfig: conference and rsvp settings', () => {
  it('defaults to Jitsi on meet.jit.si and a development rsvp secret', () => {
    const c = loadConfig(CalendarConfig, {});
    expect([c.CALENDAR_CONFERENCE_PROVIDER, c.CALENDAR_JITSI_BASE_URL]).toEqual([
      'jitsi',
      'https://meet.jit.si',
    ]);
  });

  it('fails at boot on an unknown provider or a base URL that is not https', () => {
    expect(() => loadConfig(CalendarConfig, { CALENDAR_CONFERENCE_PROVIDER: 'zoom' })).toThrow(
      /CALENDAR_CONFERENCE_PROVIDER/,
    );
    expect(() => loadConfig(CalendarConfig, { CALENDAR_JITSI_BASE_URL: 'http://meet.example.org' })).toThrow(
      /CALENDAR_JITSI_BASE_URL/,
    );
  });

  it('checks a set rsvp secret; unset, the development default outside production and none in production', () => {
    expect(loadConfig(CalendarConfig, {}).rsvpSecret()).toBe(DEV_RSVP_SECRET);
    expect(loadConfig(CalendarConfig, { NODE_ENV: 'production' }).rsvpSecret()).toBeNull();
    expect(() => loadConfig(CalendarConfig, { CALENDAR_RSVP_SECRET: 'short' })).toThrow(
      /CALENDAR_RSVP_SECRET/,
    );
    expect(() =>
      loadConfig(CalendarConfig, { NODE_ENV: 'production', CALENDAR_RSVP_SECRET: DEV_RSVP_SECRET }),
    ).toThrow(/CALENDAR_RSVP_SECRET/);
    expect(
      loadConfig(CalendarConfig, {
        NODE_ENV: 'production',
        CALENDAR_RSVP_SECRET: 'x'.repeat(32),
      }).rsvpSecret(),
    ).toHaveLength(32);
  });
});

describe('CalendarConfig: CalDAV sign-in settings (decision 0041)', () => {
  it('defaults to 20 app passwords a person, 10 failures a username and 50 an address in 5 minutes', () => {
    const c = loadConfig(CalendarConfig, {});
    expect([
      c.CALENDAR_APP_PASSWORDS_PER_PERSON,
      c.CALENDAR_DAV_AUTH_FAILURES_PER_USERNAME,
      c.CALENDAR_DAV_AUTH_FAILURES_PER_IP,
      c.CALENDAR_DAV_AUTH_WINDOW_SEC,
    ]).toEqual([20, 10, 50, 300]);
  });

  it('fails at boot on a trusted-proxy list that does not parse and on a public URL that is not one', () => {
    expect(() => loadConfig(CalendarConfig, { CALENDAR_TRUSTED_PROXIES: '10.0.0.0/40' })).toThrow(
      /CALENDAR_TRUSTED_PROXIES: "10.0.0.0\/40" has a prefix length outside 0-32/,
    );
    expect(() => loadConfig(CalendarConfig, { CALENDAR_PUBLIC_URL: 'platform.example.com' })).toThrow(
      /CALENDAR_PUBLIC_URL/,
    );
  });
});
