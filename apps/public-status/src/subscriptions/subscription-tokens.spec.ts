import { SubscriptionTokens, subscriberPublicId } from './subscription-tokens';

describe('SubscriptionTokens', () => {
  const tokens = new SubscriptionTokens('k'.repeat(40));
  const id = subscriberPublicId();
  const exp = new Date(Date.now() + 3_600_000);

  it('confirms only with the nonce it was made with, and not under another key', () => {
    const t = SubscriptionTokens.parseConfirm(tokens.confirm(id, exp, 'nonce-1'));
    expect(t?.publicId).toBe(id);
    expect(t && tokens.confirmMatches(t, 'nonce-1')).toBe(true);
    expect(t && tokens.confirmMatches(t, 'nonce-2')).toBe(false);
    expect(t && new SubscriptionTokens('x'.repeat(40)).confirmMatches(t, 'nonce-1')).toBe(false);
  });

  it('verifies unsubscribe tokens and refuses tampered ones', () => {
    const u = tokens.unsubscribe(id);
    expect(tokens.verifyUnsubscribe(u)).toBe(id);
    const other = subscriberPublicId();
    expect(tokens.verifyUnsubscribe(u.replace(id, other))).toBeNull();
    expect(tokens.verifyUnsubscribe(`${u.slice(0, -1)}${u.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(tokens.verifyUnsubscribe('garbage')).toBeNull();
    expect(SubscriptionTokens.parseConfirm(u)).toBeNull();
  });
});
