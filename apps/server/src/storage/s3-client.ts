import { S3 } from '@aws-sdk/client-s3';

export interface S3ConnectionOptions {
  /** S3_ENDPOINT: an S3-compatible server such as http://minio:9000; AWS itself when unset. */
  endpoint?: string;
  /** S3_FORCE_PATH_STYLE: `endpoint/bucket/key` addressing, which MinIO and most self-hosted servers need. */
  forcePathStyle?: boolean;
  /** Otherwise AWS_REGION or AWS_DEFAULT_REGION; us-east-1 when neither is set (most S3-compatible servers ignore it). */
  region?: string;
  /** Otherwise the SDK's default chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, instance role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** A client with S3's named methods too (`S3`, not the bare `S3Client`), as @tus/s3-store calls them. */
export function createS3Client(options: S3ConnectionOptions = {}): S3 {
  return new S3({
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle ?? false,
    region: options.region ?? (process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1'),
    credentials: options.credentials,
    // Newer SDKs add CRC checksums (and aws-chunked bodies) to every request, which many S3-compatible servers
    // reject or store verbatim; only send them where S3 requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
