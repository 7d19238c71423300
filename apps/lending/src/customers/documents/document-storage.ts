import type { Readable } from 'node:stream';

/**
 * Where document bytes live. Keys are the server's own (`<organization>/<customer>/<uuid>`), never a
 * client's file name. The local-disk adapter is the default; an object store implements the same.
 */
export abstract class DocumentStorage {
  /** Stores `content` under `key`; when the stream fails, nothing is left under the key. */
  abstract write(key: string, content: Readable): Promise<void>;
  /** The stored bytes, or undefined when nothing is stored under `key`. */
  abstract read(key: string): Promise<Readable | undefined>;
  /** Removes the bytes under `key`, if any. */
  abstract remove(key: string): Promise<void>;
}
