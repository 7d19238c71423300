// The first module main.ts loads: tracing (when the OTEL_* settings turn it on) must patch http and pg
// before anything loads them (docs/runbooks/dashboards.md, "Traces").
import { startTracing } from '@platform/observability/tracing';

startTracing('public-status');
