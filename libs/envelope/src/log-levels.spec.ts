import { logLevels } from './envelope.module';

describe('logLevels', () => {
  it('includes the named level and every more severe one', () => {
    expect(logLevels('warn')).toEqual(['fatal', 'error', 'warn']);
    expect(logLevels('verbose')).toHaveLength(6);
  });
  it('falls back to log for an unknown level', () => {
    expect(logLevels('chatty')).toEqual(['fatal', 'error', 'warn', 'log']);
  });
});
