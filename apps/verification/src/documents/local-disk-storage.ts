import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { FileNotStoredError, storageKeySegments, type FileStorage } from './file-storage';

/**
 * Documents as files under one directory (`VERIFICATION_STORAGE_DIR`), owner-only permissions. A file is
 * written under a temporary name in the same directory, flushed, and renamed over its key: a reader
 * never sees half a file, and a crash leaves at most a `*.part` file. Every replica must see the same
 * directory (the registry's `documents` volume in Kubernetes and compose); else use S3CompatibleStorage.
 */
export class LocalDiskStorage implements FileStorage {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The key's file; refuses keys that are not plain segments or that would leave the root. */
  pathOf(key: string): string {
    const path = resolve(this.root, ...storageKeySegments(key));
    if (!path.startsWith(this.root + sep)) throw new Error(`storage key outside the root: ${key}`);
    return path;
  }

  /** The content type is not kept: the row holds the declared and detected types. */
  async put(key: string, body: Buffer, _contentType?: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const partial = `${path}.${randomUUID()}.part`;
    try {
      const handle = await open(partial, 'wx', 0o600);
      try {
        await handle.writeFile(body);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(partial, path);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Buffer> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotStoredError(key);
      throw err;
    }
  }
}
