import './instrument';
import { runHttpMain } from '@platform/envelope';
import { createVerificationApp } from './bootstrap';
import { VerificationConfig } from './config/verification.config';

runHttpMain('verification', () => createVerificationApp(), VerificationConfig);
