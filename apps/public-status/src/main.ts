import './instrument';
import { runHttpMain } from '@platform/envelope';
import { createPublicStatusApp } from './bootstrap';
import { PublicStatusConfig } from './config/public-status.config';

runHttpMain('public-status', () => createPublicStatusApp(), PublicStatusConfig);
