import './instrument';
import { runHttpMain } from '@platform/envelope';
import { createLendingApp } from './bootstrap';
import { LendingConfig } from './config/lending.config';

runHttpMain('lending', () => createLendingApp(), LendingConfig);
