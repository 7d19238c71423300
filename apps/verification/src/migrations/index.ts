import { InitVerification1763703000000 } from './1763703000000-init-verification';

export const VERIFICATION_MIGRATIONS = [InitVerification1763703000000];
