import { Injectable, type Provider } from '@nestjs/common';
import { PeriodicJob } from '@platform/scheduling';
import { VerificationConfig } from '../config/verification.config';
import { DocumentsService } from './documents.service';
import { FILE_STORAGE, type FileStorage } from './file-storage';
import { LocalDiskStorage } from './local-disk-storage';
import { S3CompatibleStorage } from './s3-compatible-storage';

/** The configured FileStorage: `VERIFICATION_STORAGE=local` (default) or `s3`. */
export function fileStorageFrom(config: VerificationConfig): FileStorage {
  if (config.VERIFICATION_STORAGE === 's3')
    return new S3CompatibleStorage({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  return new LocalDiskStorage(config.documentStorageDir());
}

export const FILE_STORAGE_PROVIDER: Provider = {
  provide: FILE_STORAGE,
  inject: [VerificationConfig],
  useFactory: fileStorageFrom,
};

/**
 * Expires AwaitingUpload documents whose signed URL lapsed, every DOCUMENT_EXPIRY_SWEEP_INTERVAL_MS on
 * every replica (the rows are claimed with SKIP LOCKED, so replicas never take the same one). Its own
 * timer, not the orchestrator's: expiry must happen even with the orchestrator turned off.
 */
@Injectable()
export class DocumentExpirySweeper extends PeriodicJob<number> {
  constructor(
    private readonly config: VerificationConfig,
    private readonly documents: DocumentsService,
  ) {
    super('DocumentExpiry');
  }

  protected intervalMs(): number {
    return this.config.DOCUMENT_EXPIRY_SWEEP_INTERVAL_MS;
  }

  protected work(): Promise<number> {
    return this.documents.expireLapsedUploads();
  }

  protected override describe(n: number): string | null {
    return n ? `expired ${n} unused upload URL(s)` : null;
  }
}
