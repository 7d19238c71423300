import './instrument';
import { runHttpMain } from '@platform/envelope';
import { createGatewayApp } from './bootstrap';
import { GatewayConfig } from './config/gateway.config';

runHttpMain('gateway', () => createGatewayApp(), GatewayConfig);
