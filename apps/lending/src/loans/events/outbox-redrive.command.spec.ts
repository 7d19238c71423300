import { redriveFilter } from './outbox-redrive.command';

describe('redrive-dead-events arguments', () => {
  it('name events, a topic, an organization, a moment, or all of them', () => {
    expect(
      redriveFilter([
        '--topic',
        'lending.contract.accounting-events.v1',
        '--organization',
        'org-a',
        '--since',
        '2026-11-27T00:00:00Z',
        '4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      ]),
    ).toEqual({
      topic: 'lending.contract.accounting-events.v1',
      tenantId: 'org-a',
      deadSince: new Date('2026-11-27T00:00:00Z'),
      eventIds: ['4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f'],
    });
    expect(redriveFilter(['--all'])).toEqual({ all: true });
    expect(redriveFilter([])).toEqual({});
  });

  it('refuse what they do not understand instead of guessing', () => {
    expect(() => redriveFilter(['--topic'])).toThrow('--topic needs a value');
    expect(() => redriveFilter(['--since', 'yesterday'])).toThrow('ISO 8601');
    expect(() => redriveFilter(['--everything'])).toThrow('unknown option --everything');
  });
});
