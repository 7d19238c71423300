export { createKafka, kafkaClientOptions, kafkaMicroserviceOptions } from './kafka-client';
export { BrokerProbe } from './broker-probe';
export { BrokerProbeModule } from './broker-probe.module';
