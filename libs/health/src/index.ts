export {
  HealthModule,
  type HealthCheck,
  type HealthCheckDefinition,
  type ReadinessReport,
} from './health.module';
export { databaseCheck, brokerCheck } from './standard-checks';
