/**
 * The one mechanism for periodic work (CONVENTIONS.md, "Not to copy"): `Periodic` for plain classes
 * (the relay's drain loops, the webhook worker, the gateway's lease store), `PeriodicJob` for Nest
 * providers. eslint.config.mjs bans `setInterval` and hand-written polling loops everywhere else.
 */
export { Periodic, type PeriodicOptions, type PeriodicScope } from './periodic';
export { PeriodicJob, type PeriodicJobOptions } from './periodic-job';
