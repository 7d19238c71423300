import { service } from '@platform/registry';
import { API_VERSIONS, CURRENT_API_VERSION, requestedVersion } from './api-version';

describe('Api-Version selection', () => {
  it('answers with the current version when none is asked for', () => {
    expect(CURRENT_API_VERSION).toBe('1');
    for (const raw of [undefined, '', '  ', ['']]) expect(requestedVersion(raw)).toBe('1');
  });

  it('accepts every served version with or without a v', () => {
    for (const v of API_VERSIONS) {
      expect(requestedVersion(v)).toBe(v);
      expect(requestedVersion(`v${v}`)).toBe(v);
      expect(requestedVersion(` V${v} `)).toBe(v);
      expect(requestedVersion([v, '99'])).toBe(v);
    }
  });

  it('refuses anything else instead of guessing', () => {
    for (const raw of ['2', 'v0', '1.0', '01x', 'latest', '2026-11-23', '1; drop', '9'.repeat(50)])
      expect(requestedVersion(raw)).toBe('unsupported');
  });

  it("is the version the gateway names on its own refusals of lending's paths (libs/registry)", () => {
    expect(service('lending').gateway.answerHeaders).toEqual({ 'Api-Version': CURRENT_API_VERSION });
  });
});
