import { InitLending1763702000000 } from './1763702000000-init-lending';

export const LENDING_MIGRATIONS = [InitLending1763702000000];
