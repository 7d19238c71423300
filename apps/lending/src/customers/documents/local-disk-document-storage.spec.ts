import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { LocalDiskDocumentStorage } from './local-disk-document-storage';
import { UploadInspector, UploadRefused } from './upload-inspector';

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 7)]);

/** As inspectRequestBody wires it: the inspector may fail before storage starts reading it. */
function inspect(chunks: Buffer[], max: number): UploadInspector {
  const inspector = new UploadInspector(max);
  inspector.once('error', () => undefined);
  Readable.from(chunks).pipe(inspector);
  return inspector;
}

describe('local disk document storage and the upload inspector', () => {
  let root: string;
  let storage: LocalDiskDocumentStorage;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'lending-docs-'));
    storage = new LocalDiskDocumentStorage(root);
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const read = async (key: string) => {
    const s = await storage.read(key);
    const chunks: Buffer[] = [];
    for await (const c of s as Readable) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };

  it('stores, reads back and removes the bytes under the key', async () => {
    const inspector = inspect([PDF.subarray(0, 3), PDF.subarray(3)], 1 << 20);
    await storage.write('org-a/c1/d1', inspector);
    expect(inspector).toMatchObject({ size: PDF.length, contentType: 'application/pdf' });
    expect(inspector.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await read('org-a/c1/d1')).equals(PDF)).toBe(true);
    expect(await readFile(join(root, 'org-a', 'c1', 'd1'))).toEqual(PDF);
    await storage.remove('org-a/c1/d1');
    expect(await storage.read('org-a/c1/d1')).toBeUndefined();
  });

  it('leaves nothing when the inspector refuses: too large, wrong type, empty', async () => {
    const refusal = async (bytes: Buffer[], max: number) => {
      const err = await storage.write('org-a/c1/x', inspect(bytes, max)).catch((e: unknown) => e);
      return err instanceof UploadRefused ? err.problem : err;
    };
    expect(await refusal([PDF], 100)).toBe('too_large');
    expect(await refusal([Buffer.from('MZ\x90\x00\x03\x00\x00\x00 rest of an exe')], 1 << 20)).toBe('type');
    expect(await refusal([Buffer.from('%PD')], 1 << 20)).toBe('type');
    expect(await refusal([], 1 << 20)).toBe('empty');
    expect(await readdir(join(root, 'org-a', 'c1'))).toEqual([]);
  });

  it('refuses keys that are not plain segments', async () => {
    for (const key of ['../x', 'a/../../x', '/abs', 'a//b', 'a/.hidden'])
      await expect(storage.write(key, Readable.from([PDF]))).rejects.toThrow(/storage key/);
  });
});
