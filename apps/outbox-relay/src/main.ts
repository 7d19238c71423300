import './instrument';
import { runHttpMain } from '@platform/envelope';
import { createRelayApp } from './bootstrap';
import { RelayConfig } from './config/relay.config';

runHttpMain('outbox-relay', () => createRelayApp(), RelayConfig);
