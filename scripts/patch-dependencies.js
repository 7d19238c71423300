#!/usr/bin/env node
/*
 * Fixes in dependencies that upstream has not released, applied after every `npm install` (the
 * `postinstall` script; the Dockerfiles copy this file before their install). Each patch replaces one
 * exact piece of the dependency's source and is idempotent; when neither the original nor the patched
 * text is found (the dependency moved on), the install fails, so the patch is looked at again rather
 * than silently lost. libs/kafka/src/kafkajs-request-queue.spec.ts proves the patched behaviour.
 */
const { readFileSync, writeFileSync } = require('node:fs');

const PATCHES = [
  {
    // kafkajs 2.2.4 (tulios/kafkajs#1751, #1704): with nothing pending and no throttle, the request
    // queue scheduled its next check at `throttledUntil (-1) - Date.now()`, about -57 years: Node 24
    // logs TimeoutNegativeWarning at every start, and the 1 ms timer it falls back to spins for as long
    // as the connection lives. Nothing pending and not throttled: nothing to schedule (a request that
    // cannot go at once is queued by push(), which schedules the check itself).
    module: 'kafkajs/src/network/requestQueue/index.js',
    from: `      if (this.pending.length > 0) {
        scheduleAt = scheduleAt > 0 ? scheduleAt : CHECK_PENDING_REQUESTS_INTERVAL
      }
      this.throttleCheckTimeoutId = setTimeout(`,
    to: `      if (this.pending.length > 0) {
        scheduleAt = scheduleAt > 0 ? scheduleAt : CHECK_PENDING_REQUESTS_INTERVAL
      } else if (!(scheduleAt > 0)) {
        // platform patch (scripts/patch-dependencies.js, kafkajs#1751): nothing to check
        return
      }
      this.throttleCheckTimeoutId = setTimeout(`,
  },
];

let failed = false;
for (const p of PATCHES) {
  let file;
  try {
    file = require.resolve(p.module);
  } catch {
    continue; // not installed (e.g. pruned): nothing to patch
  }
  const text = readFileSync(file, 'utf8');
  if (text.includes(p.to)) continue;
  if (!text.includes(p.from)) {
    console.error(
      `patch-dependencies: ${p.module} changed; review the patch in scripts/patch-dependencies.js`,
    );
    failed = true;
    continue;
  }
  writeFileSync(file, text.replace(p.from, p.to));
  console.log(`patch-dependencies: patched ${p.module}`);
}
process.exit(failed ? 1 : 0);
