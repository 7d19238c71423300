import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileNameOrganization, sha256sumLine, type AccountingFile } from './accounting-file';

/** `<root>/<organization>/<YYYY>/` (docs/lending/events.md, "Daily accounting file"). */
export function accountingFileDir(root: string, organizationId: string, businessDate: string): string {
  return join(root, fileNameOrganization(organizationId), businessDate.slice(0, 4));
}

/** Whether the day's file is complete on disk: its `.sha256` is written last. */
export function accountingFileWritten(
  root: string,
  organizationId: string,
  businessDate: string,
  name: string,
) {
  return existsSync(join(accountingFileDir(root, organizationId, businessDate), `${name}.sha256`));
}

/**
 * Writes the file as `….csv.part` and renames it, then its `.sha256` the same way: a receiver that
 * takes a file only once its checksum exists never reads a partial one. Writing it again (another
 * replica, a retry) writes the same bytes.
 */
export async function writeAccountingFile(
  root: string,
  organizationId: string,
  businessDate: string,
  file: AccountingFile,
): Promise<string> {
  const dir = accountingFileDir(root, organizationId, businessDate);
  await mkdir(dir, { recursive: true });
  const path = join(dir, file.name);
  const unique = `${process.pid}-${Date.now()}`;
  await writeFile(`${path}.${unique}.part`, file.content, { flush: true });
  await rename(`${path}.${unique}.part`, path);
  await writeFile(`${path}.sha256.${unique}.part`, sha256sumLine(file.name, file.sha256), { flush: true });
  await rename(`${path}.sha256.${unique}.part`, `${path}.sha256`);
  return path;
}
