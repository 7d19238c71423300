/**
 * Where documents' bytes live (docs/verification/documents.md, "Storage"). Keys are built by the server
 * only (`<organization>/<case>/<document>`, documentStorageKey); an adapter still refuses a key that
 * could leave its root, so a bug upstream cannot turn into reading another party's file.
 */
export interface FileStorage {
  /** Stores the bytes under `key`, replacing nothing half-written: a reader sees all of it or nothing. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The bytes under `key`; rejects with FileNotStoredError when there are none. */
  get(key: string): Promise<Buffer>;
}

/** Nest token of the configured FileStorage (documents.providers.ts). */
export const FILE_STORAGE = Symbol('FILE_STORAGE');

/** No object under the key (a lost file, or a key never written). */
export class FileNotStoredError extends Error {
  constructor(readonly key: string) {
    super(`no file stored under ${key}`);
    this.name = 'FileNotStoredError';
  }
}

/** A key segment: what organization ids and UUIDs are made of. No `.`/`..`, no separators. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The key's segments, or an Error for a key that is empty, absolute, or has `..`, `\` or odd characters. */
export function storageKeySegments(key: string): string[] {
  const segments = key.split('/');
  if (!key || !segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..'))
    throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  return segments;
}

/** The only way a document's key is made: from the server's own ids, never from a request's text. */
export function documentStorageKey(organizationId: string, caseId: string, documentId: string): string {
  const key = `${organizationId}/${caseId}/${documentId}`;
  storageKeySegments(key);
  return key;
}
