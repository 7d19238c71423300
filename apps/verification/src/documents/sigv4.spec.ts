import { S3CompatibleStorage } from './s3-compatible-storage';
import { encodeS3Path, sha256Hex, signV4, type SigV4Credentials } from './sigv4';

/**
 * The worked examples of AWS's "Signature Calculations for the Authorization Header: Transferring
 * Payload in a Single Chunk (AWS Signature Version 4)" (Amazon S3 API reference,
 * sig-v4-header-based-auth.html): the documented canonical requests, strings to sign and signatures.
 */
const creds: SigV4Credentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  service: 's3',
};
const AT = new Date('2013-05-24T00:00:00Z');
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('AWS Signature V4 (the S3 documentation examples)', () => {
  it('GET Object with a Range header', () => {
    const r = signV4(
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
        headers: { Range: 'bytes=0-9' },
        payloadHash: sha256Hex(''),
      },
      creds,
      AT,
    );
    expect(r.canonicalRequest).toBe(
      [
        'GET',
        '/test.txt',
        '',
        'host:examplebucket.s3.amazonaws.com',
        'range:bytes=0-9',
        `x-amz-content-sha256:${EMPTY}`,
        'x-amz-date:20130524T000000Z',
        '',
        'host;range;x-amz-content-sha256;x-amz-date',
        EMPTY,
      ].join('\n'),
    );
    expect(r.stringToSign).toBe(
      [
        'AWS4-HMAC-SHA256',
        '20130524T000000Z',
        '20130524/us-east-1/s3/aws4_request',
        '7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972',
      ].join('\n'),
    );
    expect(r.headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('PUT Object with a payload, a Date header and a key that needs encoding', () => {
    const body = 'Welcome to Amazon S3.';
    expect(sha256Hex(body)).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const url = new URL('https://examplebucket.s3.amazonaws.com');
    url.pathname = encodeS3Path('/test$file.text');
    const r = signV4(
      {
        method: 'PUT',
        url,
        headers: { Date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
        payloadHash: sha256Hex(body),
      },
      creds,
      AT,
    );
    expect(r.canonicalRequest.split('\n').slice(0, 2)).toEqual(['PUT', '/test%24file.text']);
    expect(r.stringToSign.split('\n')[3]).toBe(
      '9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d',
    );
    expect(r.signature).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
    expect(r.headers.authorization).toContain(
      'SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,',
    );
  });

  it('GET Bucket with sorted query parameters (List Objects)', () => {
    const r = signV4(
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2'),
        headers: {},
        payloadHash: sha256Hex(''),
      },
      creds,
      AT,
    );
    expect(r.canonicalRequest.split('\n')[2]).toBe('max-keys=2&prefix=J');
    expect(r.signature).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });

  it('a changed byte of the payload changes the signature', () => {
    const sign = (body: string) =>
      signV4(
        {
          method: 'PUT',
          url: new URL('https://s3.example.com/b/k'),
          headers: {},
          payloadHash: sha256Hex(body),
        },
        creds,
        AT,
      ).signature;
    expect(sign('a')).not.toBe(sign('b'));
  });
});

describe('S3CompatibleStorage', () => {
  const settings = {
    endpoint: 'http://minio.local:9000',
    bucket: 'docs',
    region: 'us-east-1',
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  };

  it('PUTs path-style with a signed payload hash and GETs the bytes back', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const stored = new Map<string, Buffer>();
    const fake = (async (input: URL | string, init: RequestInit = {}) => {
      const url = String(input);
      calls.push({ url, init });
      if (init.method === 'PUT') {
        stored.set(url, Buffer.from(init.body as Uint8Array));
        return new Response(null, { status: 200 });
      }
      const got = stored.get(url);
      return got
        ? new Response(new Uint8Array(got), { status: 200 })
        : new Response('NoSuchKey', { status: 404 });
    }) as typeof fetch;
    const s3 = new S3CompatibleStorage(settings, fake);
    const body = Buffer.from('%PDF-1.7 test');
    await s3.put('org-a/case-1/doc-1', body, 'application/pdf');
    expect(calls[0].url).toBe('http://minio.local:9000/docs/org-a/case-1/doc-1');
    const headers = calls[0].init.headers as Record<string, string>;
    expect(headers['x-amz-content-sha256']).toBe(sha256Hex(body));
    expect(headers['content-type']).toBe('application/pdf');
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request,SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date,Signature=[0-9a-f]{64}$/,
    );
    expect(await s3.get('org-a/case-1/doc-1')).toEqual(body);
    await expect(s3.get('org-a/case-1/other')).rejects.toThrow(/no file stored/);
  });

  it('refuses keys that could leave the bucket prefix', () => {
    const s3 = new S3CompatibleStorage(settings, (() => {
      throw new Error('no call expected');
    }) as unknown as typeof fetch);
    expect(() => s3.urlOf('../other-bucket/x')).toThrow(/storage key/);
    expect(() => s3.urlOf('/abs')).toThrow(/storage key/);
  });
});
