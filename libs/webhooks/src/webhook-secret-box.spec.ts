import { generateWebhookSecret, WebhookSecretBox } from './webhook-secret-box';

describe('WebhookSecretBox', () => {
  const key = 'k'.repeat(40);

  it('round-trips, binds the ciphertext to its subscription and hides the secret', () => {
    const box = new WebhookSecretBox(key);
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const sealed = box.seal(secret, 'sub-1');
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.open(sealed, 'sub-1')).toBe(secret);
    expect(() => box.open(sealed, 'sub-2')).toThrow();
    expect(() => new WebhookSecretBox('x'.repeat(40)).open(sealed, 'sub-1')).toThrow(/key/);
  });

  it('opens rows sealed under an older key after a key change', () => {
    const sealed = new WebhookSecretBox(key).seal('whsec_x', 's');
    expect(new WebhookSecretBox('n'.repeat(40), [key]).open(sealed, 's')).toBe('whsec_x');
    expect(() => new WebhookSecretBox('short')).toThrow(/32/);
  });
});
