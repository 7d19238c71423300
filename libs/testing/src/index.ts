export { createTestDatabase, withClient } from './database';
export { TopicCollector, testKafka, type ReceivedMessage } from './kafka';
export { listen, request, rawRequest, type JsonResponse, type RawResponse } from './http';
export { serviceEnv, eventually } from './env';
export { spawnTsProcess, type JsonLineProcess } from './process';
