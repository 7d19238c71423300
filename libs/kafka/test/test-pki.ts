import { generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * A certificate authority and the certificates it signs, made in memory for TLS tests (a Kafka
 * listener with its own CA, as Strimzi's): X.509 v3 in DER by hand, ECDSA P-256 with SHA-256, so no
 * openssl binary or committed private key is needed.
 */
export interface TestCertificate {
  /** PEM of the certificate. */
  cert: string;
  /** PEM (PKCS#8) of its private key. */
  key: string;
}

export interface TestCa extends TestCertificate {
  /** A certificate signed by this CA: a server's (`hosts` become its subjectAltName) or a client's. */
  issue(commonName: string, hosts?: string[]): TestCertificate;
}

// --- DER, only what a certificate needs -----------------------------------------------------------------

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...c: Buffer[]) => tlv(0x30, ...c);
const set = (...c: Buffer[]) => tlv(0x31, ...c);
const explicit = (n: number, ...c: Buffer[]) => tlv(0xa0 + n, ...c);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer) => tlv(0x03, Buffer.from([0]), b);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));

function integer(b: Buffer): Buffer {
  const trimmed = b[0] & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b;
  return tlv(0x02, trimmed);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const v of rest) {
    const chunk: number[] = [v & 0x7f];
    for (let x = v >> 7; x > 0; x >>= 7) chunk.unshift((x & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** GeneralizedTime, valid for every year a test runs in. */
const time = (d: Date) => tlv(0x18, Buffer.from(`${d.toISOString().replace(/[-:T]|\.\d+/g, '')}`));

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));
const name = (cn: string) => seq(set(seq(oid('2.5.4.3'), utf8(cn))));

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  throw new Error(`test-pki: only IPv4 addresses are supported, not ${ip}`);
}

function certificate(opts: {
  subject: string;
  issuer: string;
  publicKey: KeyObject;
  signer: KeyObject;
  ca: boolean;
  hosts: string[];
}): string {
  const now = Date.now();
  const extensions: Buffer[] = [
    // basicConstraints, critical
    seq(oid('2.5.29.19'), bool(true), octets(seq(...(opts.ca ? [bool(true)] : [])))),
    // keyUsage, critical: certificate signing for the CA, digital signature otherwise
    seq(oid('2.5.29.15'), bool(true), octets(tlv(0x03, Buffer.from(opts.ca ? [1, 0x06] : [7, 0x80])))),
  ];
  if (opts.hosts.length)
    extensions.push(
      seq(
        oid('2.5.29.17'),
        octets(
          seq(
            ...opts.hosts.map((h) => (isIP(h) ? tlv(0x87, ipBytes(h)) : tlv(0x82, Buffer.from(h, 'ascii')))),
          ),
        ),
      ),
    );
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(Buffer.concat([Buffer.from([0x01]), randomBytes(15)])),
    ECDSA_SHA256,
    name(opts.issuer),
    seq(time(new Date(now - 60_000)), time(new Date(now + 24 * 3600_000))),
    name(opts.subject),
    opts.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(...extensions)),
  );
  const der = seq(tbs, ECDSA_SHA256, bits(sign('sha256', tbs, opts.signer)));
  // Parsing it back proves the encoding before any TLS stack sees it.
  return new X509Certificate(der).toString();
}

const pkcs8 = (k: KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }).toString();

export function createTestCa(commonName = 'Test CA'): TestCa {
  const ca = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const cert = certificate({
    subject: commonName,
    issuer: commonName,
    publicKey: ca.publicKey,
    signer: ca.privateKey,
    ca: true,
    hosts: [],
  });
  return {
    cert,
    key: pkcs8(ca.privateKey),
    issue(cn, hosts = []) {
      const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      return {
        cert: certificate({
          subject: cn,
          issuer: commonName,
          publicKey: pair.publicKey,
          signer: ca.privateKey,
          ca: false,
          hosts,
        }),
        key: pkcs8(pair.privateKey),
      };
    },
  };
}
