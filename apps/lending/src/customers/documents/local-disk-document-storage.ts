import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DocumentStorage } from './document-storage';

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Documents as files under one directory (`LENDING_DOCUMENTS_DIR`): `<root>/<organization>/<customer>/
 * <uuid>`, owner-only permissions. A file is written under a temporary name and renamed when complete,
 * so a reader never sees half a file and a failed upload leaves nothing. Every replica must see the
 * same directory (one node, or a shared volume); otherwise use an object-store adapter.
 */
export class LocalDiskDocumentStorage extends DocumentStorage {
  private readonly root: string;

  constructor(root: string) {
    super();
    this.root = resolve(root);
  }

  /** The key's file; a key that is not plain segments, or that leaves the root, is a bug upstream. */
  private pathOf(key: string): string {
    const segments = key.split('/');
    if (!segments.every((s) => SEGMENT.test(s) && s !== '..'))
      throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    const path = resolve(this.root, ...segments);
    if (!path.startsWith(this.root + sep)) throw new Error(`storage key outside the root: ${key}`);
    return path;
  }

  async write(key: string, content: Readable): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const partial = `${path}.${randomUUID()}.part`;
    try {
      await pipeline(content, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      await rename(partial, path);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async read(key: string): Promise<Readable | undefined> {
    try {
      const handle = await open(this.pathOf(key), 'r');
      return handle.createReadStream();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
