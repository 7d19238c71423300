import { createHmac } from 'node:crypto';
import { signUpload, uploadSignatureValid, uploadUrl, type SignedUpload } from './upload-signature';

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';
const U: SignedUpload = {
  method: 'PUT',
  documentId: '3f6c1a9e-2b7d-4c8e-9f01-5a6b7c8d9e0f',
  expires: 1795426200,
  contentType: 'image/jpeg',
};

describe('signed upload URLs', () => {
  it('sign HMAC-SHA256 over method, id, expiry and content type, one per line (as documented)', () => {
    const expected = createHmac('sha256', SECRET)
      .update('PUT\n3f6c1a9e-2b7d-4c8e-9f01-5a6b7c8d9e0f\n1795426200\nimage/jpeg')
      .digest('hex');
    expect(signUpload(SECRET, U)).toBe(expected);
  });

  it('accept only the exact signature of the exact fields', () => {
    const sig = signUpload(SECRET, U);
    expect(uploadSignatureValid(SECRET, U, sig)).toBe(true);
    expect(uploadSignatureValid(SECRET, { ...U, expires: U.expires + 1 }, sig)).toBe(false);
    expect(uploadSignatureValid(SECRET, { ...U, contentType: 'application/pdf' }, sig)).toBe(false);
    expect(uploadSignatureValid(SECRET, { ...U, documentId: U.documentId.replace('3', '4') }, sig)).toBe(
      false,
    );
    expect(uploadSignatureValid('another-secret-of-at-least-thirty-two-chars', U, sig)).toBe(false);
    expect(uploadSignatureValid(SECRET, U, sig.toUpperCase())).toBe(false);
    expect(uploadSignatureValid(SECRET, U, sig.slice(0, 62))).toBe(false);
    expect(uploadSignatureValid(SECRET, U, '')).toBe(false);
  });

  it('build the URL on the public origin', () => {
    expect(uploadUrl('https://verify.example.com', U, 'ab')).toBe(
      'https://verify.example.com/api/v1/document-uploads/3f6c1a9e-2b7d-4c8e-9f01-5a6b7c8d9e0f?expires=1795426200&signature=ab',
    );
  });
});
