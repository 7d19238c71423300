import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileNotStoredError, documentStorageKey } from './file-storage';
import { LocalDiskStorage } from './local-disk-storage';

describe('LocalDiskStorage', () => {
  let root: string;
  let storage: LocalDiskStorage;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'verification-storage-'));
    storage = new LocalDiskStorage(root);
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const key = documentStorageKey(
    'org-a',
    '9b2f7c1e-4a3d-4e8f-b6a1-0c5d2e7f8a90',
    '3f6c1a9e-2b7d-4c8e-9f01-5a6b7c8d9e0f',
  );

  it('stores and reads back the same bytes, owner-only, without leftovers', async () => {
    const body = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01, 0x02]);
    await storage.put(key, body, 'image/jpeg');
    expect(await storage.get(key)).toEqual(body);
    const dir = join(root, 'org-a', '9b2f7c1e-4a3d-4e8f-b6a1-0c5d2e7f8a90');
    expect(await readdir(dir)).toEqual(['3f6c1a9e-2b7d-4c8e-9f01-5a6b7c8d9e0f']);
    expect((await stat(join(dir, '3f6c1a9e-2b7d-4c8e-9f01-5a6b7c8d9e0f'))).mode & 0o777).toBe(0o600);
  });

  it('replaces a file whole (temp file + rename), never appending to or truncating in place', async () => {
    await storage.put(key, Buffer.from('first version, longer'), 'application/pdf');
    await storage.put(key, Buffer.from('second'), 'application/pdf');
    expect((await storage.get(key)).toString()).toBe('second');
    const dir = join(root, 'org-a', '9b2f7c1e-4a3d-4e8f-b6a1-0c5d2e7f8a90');
    expect((await readdir(dir)).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('leaves no partial file when the write fails', async () => {
    // The key's directory is a file: the temp file cannot be created under it.
    await writeFile(join(root, 'org-b'), 'not a directory');
    await expect(storage.put('org-b/c/d', Buffer.from('x'), 'image/png')).rejects.toThrow();
    expect(await readdir(root)).toEqual(['org-b']);
  });

  it('answers FileNotStoredError for a key never written', async () => {
    await expect(storage.get(key)).rejects.toBeInstanceOf(FileNotStoredError);
  });

  it.each([
    '../outside',
    'org-a/../../etc/passwd',
    '/etc/passwd',
    'org-a//x',
    'org-a/./x',
    'org-a\\..\\x',
    '',
    'org-a/x/',
    '.hidden/x',
  ])('refuses the key %j', async (bad) => {
    await expect(storage.put(bad, Buffer.from('x'), 'image/png')).rejects.toThrow(/storage key/);
    await expect(storage.get(bad)).rejects.toThrow(/storage key/);
    expect(await readdir(root)).toEqual([]);
  });

  it('builds keys only from plain segments', () => {
    expect(() => documentStorageKey('org-a', '../x', 'y')).toThrow(/storage key/);
    expect(documentStorageKey('org-a', 'c', 'd')).toBe('org-a/c/d');
  });
});
