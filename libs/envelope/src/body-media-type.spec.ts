import { bodyMediaTypeRefusal, carriesBody, isJsonMediaType, mediaTypeOf } from './body-media-type';

describe('body media types', () => {
  const withBody = (type?: string) => ({
    'content-length': '2',
    ...(type === undefined ? {} : { 'content-type': type }),
  });

  it('lets JSON through on every route, +json suffixes and parameters included', () => {
    for (const t of ['application/json', 'Application/JSON; charset=utf-8', 'application/merge-patch+json'])
      expect(bodyMediaTypeRefusal(withBody(t), undefined)).toBeUndefined();
    expect(isJsonMediaType('application/jsonx')).toBe(false);
    expect(isJsonMediaType('text/json')).toBe(false);
  });

  it('refuses any other body with 415 UNSUPPORTED_MEDIA_TYPE, naming the type and what the route takes', () => {
    for (const t of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      undefined,
    ]) {
      const e = bodyMediaTypeRefusal(withBody(t), undefined);
      expect([e?.status, e?.reason]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    expect(bodyMediaTypeRefusal(withBody('text/plain'), ['application/pdf'])?.details).toEqual({
      contentType: 'text/plain',
      accepted: ['application/json', 'application/pdf'],
    });
    expect(bodyMediaTypeRefusal({ 'transfer-encoding': 'chunked' }, undefined)?.status).toBe(415);
  });

  it('takes what the route declares, `*` being any', () => {
    const form = ['application/x-www-form-urlencoded'];
    expect(
      bodyMediaTypeRefusal(withBody('application/x-www-form-urlencoded; charset=utf-8'), form),
    ).toBeUndefined();
    expect(bodyMediaTypeRefusal(withBody('text/plain'), form)?.status).toBe(415);
    expect(bodyMediaTypeRefusal(withBody('image/heic'), ['*'])).toBeUndefined();
    expect(bodyMediaTypeRefusal(withBody('image/heic'), ['image/*'])).toBeUndefined();
  });

  it('lets a request without a body through whatever its Content-Type', () => {
    expect(carriesBody({})).toBe(false);
    expect(carriesBody({ 'content-length': '0', 'content-type': 'text/plain' })).toBe(false);
    expect(
      bodyMediaTypeRefusal({ 'content-length': '0', 'content-type': 'text/plain' }, undefined),
    ).toBeUndefined();
    expect(mediaTypeOf(' Text/Plain ; charset=x')).toBe('text/plain');
  });
});
