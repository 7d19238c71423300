import type { DomainError } from '@platform/envelope';
import { PortalService, type OpenLink } from './portal.service';

describe('PortalService.uploadInput', () => {
  const service = new PortalService(
    null as never,
    null as never,
    null as never,
    null as never,
    null as never,
    { DOCUMENT_MAX_BYTES: 20 * 1024 * 1024 + 512 * 1024 } as never,
    null as never,
  );
  const individual = { state: 'open', case: { applicantType: 'Individual' } } as unknown as OpenLink;
  const business = { state: 'open', case: { applicantType: 'Business' } } as unknown as OpenLink;
  const reason = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as DomainError).reason;
    }
    return 'no error';
  };

  it('takes the kinds of the applicant type only', () => {
    expect(service.uploadInput(individual, 'Passport', undefined, 'image/png').kind).toBe('Passport');
    expect(reason(() => service.uploadInput(business, 'Passport', undefined, 'image/png'))).toBe(
      'PORTAL_DOCUMENT_KIND_INVALID',
    );
    expect(reason(() => service.uploadInput(individual, undefined, undefined, 'image/png'))).toBe(
      'PORTAL_DOCUMENT_KIND_INVALID',
    );
    expect(reason(() => service.uploadInput(individual, 'toString', undefined, 'image/png'))).toBe(
      'PORTAL_DOCUMENT_KIND_INVALID',
    );
  });

  it('decodes the file name, keeps its last path segment, and names a nameless file after its kind', () => {
    const name = (n: string | undefined) =>
      service.uploadInput(individual, 'Selfie', n, 'image/jpeg').fileName;
    expect(name(encodeURIComponent('селфи 1.jpg'))).toBe('селфи 1.jpg');
    expect(name(encodeURIComponent('C:\\photos\\../me.jpg'))).toBe('me.jpg');
    expect(name(undefined)).toBe('Selfie');
    expect(name('')).toBe('Selfie');
  });

  it.each([
    ['%E0%A4%A'],
    [encodeURIComponent('a\u0000b.png')],
    [encodeURIComponent('x'.repeat(201))],
    ['dir%2F'],
  ])('refuses the file name %s', (n) =>
    expect(reason(() => service.uploadInput(individual, 'Selfie', n, 'image/png'))).toBe(
      'PORTAL_FILE_NAME_INVALID',
    ),
  );

  it('passes the declared type on without parameters, lower case', () => {
    expect(service.uploadInput(individual, 'Selfie', undefined, 'Image/JPEG; q=1').declaredContentType).toBe(
      'image/jpeg',
    );
    expect(service.uploadInput(individual, 'Selfie', undefined, undefined).declaredContentType).toBe(
      'application/octet-stream',
    );
  });
});

describe('PortalService file limit', () => {
  it("is the documents area's DOCUMENT_MAX_BYTES, and the page's MiB never promise more", () => {
    const of = (bytes: number) =>
      new PortalService(
        null as never,
        null as never,
        null as never,
        null as never,
        null as never,
        { DOCUMENT_MAX_BYTES: bytes } as never,
        null as never,
      );
    expect(of(20 * 1024 * 1024).maxFileBytes).toBe(20 * 1024 * 1024);
    expect(of(20 * 1024 * 1024).maxFileMb).toBe(20);
    expect(of(20 * 1024 * 1024 + 512 * 1024).maxFileMb).toBe(20.5);
    expect(of(20 * 1024 * 1024 - 1).maxFileMb).toBe(19.9);
  });
});
