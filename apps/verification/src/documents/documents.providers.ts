import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit, type Provider } from '@nestjs/common';
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
 * timer, not the orchestrator's loop: expiry must happen even with the orchestrator turned off. A
 * failed round is logged and retried next time.
 */
@Injectable()
export class DocumentExpirySweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('DocumentExpiry');
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly config: VerificationConfig,
    private readonly documents: DocumentsService,
  ) {}

  onModuleInit(): void {
    const every = this.config.DOCUMENT_EXPIRY_SWEEP_INTERVAL_MS;
    if (every === 0) return;
    this.timer = setInterval(() => void this.round(), every);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async round(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const n = await this.documents.expireLapsedUploads();
      if (n) this.logger.log(`expired ${n} unused upload URL(s)`);
    } catch (err) {
      this.logger.warn(`expiry round failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.running = false;
    }
  }
}
