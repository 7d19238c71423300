import { FileNotStoredError, storageKeySegments, type FileStorage } from './file-storage';
import { encodeS3Path, sha256Hex, signV4, type SigV4Credentials } from './sigv4';

export interface S3Settings {
  /** e.g. `https://s3.eu-central-1.amazonaws.com` or a MinIO/Ceph address; path-style requests. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const TIMEOUT_MS = 60_000;

/**
 * An S3-compatible bucket (AWS S3, MinIO, Ceph RGW, ...): path-style PUT/GET Object over fetch, signed
 * with AWS Signature V4 (sigv4.ts). The payload is hashed and signed, so a body changed on the way is
 * refused by the store. Keys are checked like LocalDiskStorage's, so both adapters accept the same keys.
 */
export class S3CompatibleStorage implements FileStorage {
  private readonly creds: SigV4Credentials;
  private readonly base: URL;

  constructor(
    private readonly settings: S3Settings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.creds = {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      region: settings.region,
      service: 's3',
    };
    this.base = new URL(settings.endpoint);
  }

  /** The object's URL: `<endpoint>/<bucket>/<key>`, each part percent-encoded once. */
  urlOf(key: string): URL {
    storageKeySegments(key);
    const prefix = this.base.pathname.replace(/\/+$/, '');
    const url = new URL(this.base.origin);
    url.pathname = encodeS3Path(`${prefix}/${this.settings.bucket}/${key}`);
    return url;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const url = this.urlOf(key);
    const signed = signV4(
      {
        method: 'PUT',
        url,
        headers: { 'content-type': contentType },
        payloadHash: sha256Hex(body),
      },
      this.creds,
      new Date(),
    );
    const { host: _host, ...headers } = signed.headers;
    const res = await this.fetchImpl(url, {
      method: 'PUT',
      headers,
      body: new Uint8Array(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`S3 PUT ${key} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  }

  async get(key: string): Promise<Buffer> {
    const url = this.urlOf(key);
    const signed = signV4(
      { method: 'GET', url, headers: {}, payloadHash: sha256Hex('') },
      this.creds,
      new Date(),
    );
    const { host: _host, ...headers } = signed.headers;
    const res = await this.fetchImpl(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (res.status === 404) throw new FileNotStoredError(key);
    if (!res.ok) throw new Error(`S3 GET ${key} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return Buffer.from(await res.arrayBuffer());
  }
}
