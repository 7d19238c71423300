export { ConsumerModule, type ConsumerModuleAsyncOptions } from './consumer.module';
export { ConsumerService } from './consumer.service';
export { CONSUMER_OPTIONS, type ConsumerModuleOptions, type TransactionRunnerOf } from './consumer.options';
export type { ContractHandler, ConsumerContext, ConsumerRegistration } from './contract-handler';
export {
  ConsumerMetrics,
  type ConsumerCounters,
  type ConsumerCounter,
  type ConsumerSeries,
} from './consumer.metrics';
export {
  DeliveryProcessor,
  type DeliveryReport,
  type DeliveryOutcome,
  type DeliveryControl,
  type DeliveryProcessorOptions,
  type Route,
} from './delivery-processor';
export {
  DeadLetterHeader,
  deadLetterMessage,
  type DeadLetterMessage,
  type OriginalMessage,
} from './dead-letter';
export { DEFAULT_RETRY_POLICY, backoffDelay, retryPolicy, type RetryPolicy } from './retry-policy';
export { poolTransaction } from './pg-transaction';
export type { GroupStatus, GroupState } from './group.consumer';
