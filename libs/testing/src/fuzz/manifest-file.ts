import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RouteManifestEntry } from './route-manifest';

const ROOT = resolve(__dirname, '../../../..');

export function routeManifestPath(app: string): string {
  return resolve(ROOT, 'docs', 'routes', `${app}.json`);
}

export function readRouteManifest(app: string): RouteManifestEntry[] {
  const path = routeManifestPath(app);
  if (!existsSync(path)) throw new Error(`${path} is missing: run UPDATE_ROUTES=1 npm run test:unit`);
  return JSON.parse(readFileSync(path, 'utf8')) as RouteManifestEntry[];
}

/**
 * The committed manifest and the one the code declares now. With UPDATE_ROUTES=1 the committed file
 * is rewritten first, so the routes test passes and the diff shows in review.
 */
export function routeManifestDrift(
  app: string,
  actual: RouteManifestEntry[],
): { committed: unknown; actual: unknown } {
  const path = routeManifestPath(app);
  const normalised = JSON.parse(JSON.stringify(actual)) as unknown;
  if (process.env.UPDATE_ROUTES === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(normalised, null, 2)}\n`);
  }
  return {
    committed: existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as unknown) : null,
    actual: normalised,
  };
}
