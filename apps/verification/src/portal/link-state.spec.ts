import { linkStateOf } from './link-state';

describe('linkStateOf', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const later = new Date('2026-11-24T13:00:00Z');
  const earlier = new Date('2026-11-24T11:00:00Z');

  it('is open for an unused, unexpired token of a case that takes documents', () => {
    expect(linkStateOf({ usedAt: null, expiresAt: later }, 'AwaitingApplicant', now)).toBe('open');
    expect(linkStateOf({ usedAt: null, expiresAt: later }, 'DocumentsReceived', now)).toBe('open');
  });

  it('is invalid without a token row or its case', () => {
    expect(linkStateOf(null, null, now)).toBe('invalid');
    expect(linkStateOf({ usedAt: null, expiresAt: later }, null, now)).toBe('invalid');
  });

  it('says used before expired, and expired at the exact instant', () => {
    expect(linkStateOf({ usedAt: earlier, expiresAt: earlier }, 'AwaitingApplicant', now)).toBe('used');
    expect(linkStateOf({ usedAt: null, expiresAt: now }, 'AwaitingApplicant', now)).toBe('expired');
  });

  it.each(['Checking', 'ManualReview', 'Approved', 'Declined', 'Cancelled', 'Expired'])(
    'is closed when the case is %s',
    (status) => expect(linkStateOf({ usedAt: null, expiresAt: later }, status, now)).toBe('closed'),
  );
});
