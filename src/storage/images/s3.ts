import type { RenderFormat } from '../../render/options.ts';
import { createHash } from 'node:crypto';
import { GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { ImageStoreConfig } from '../../config.ts';
import { DependencyDownError } from '../../errors.ts';
import { type FoundImage, IMAGE_KEY, IMAGE_TYPES, type ImageStore, type StoredImage } from './interface.ts';

type S3Config = Extract<ImageStoreConfig, { kind: 's3' }>;

/**
 * The longest one S3 call may take, connection to last body byte. The SDK has no limit of its
 * own: a store that stops answering (a partition, a hung proxy) held requests and /readyz for as
 * long as it lasted, instead of a 503.
 */
const S3_CALL_TIMEOUT_MS = 10_000;

/** One call's options: aborted (and so failed, a 503) past S3_CALL_TIMEOUT_MS, the body read included. */
function timed(): { abortSignal: AbortSignal } {
  return { abortSignal: AbortSignal.timeout(S3_CALL_TIMEOUT_MS) };
}

/**
 * Objects under `<prefix>/<sha256>.<ext>`. URLs point at POSTSHOT_S3_PUBLIC_URL when the bucket is
 * public; otherwise at the service's /images/ route, which reads the object back.
 */
export class S3ImageStore implements ImageStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(
    private readonly config: S3Config,
    private readonly publicUrl: string,
  ) {
    // The SDK warns once, on Node < 22, that its releases after January 2027 will need Node 22:
    // the lockfile takes none of them and postshot runs on Node >= 20.19, so the multi-line
    // notice on stderr would only alarm an operator. Setting the variable to "false" shows it.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      maxAttempts: 2,
    });
  }

  private objectKey(key: string): string {
    return this.config.prefix ? `${this.config.prefix}/${key}` : key;
  }

  async put(bytes: Buffer, ext: RenderFormat, contentType: string): Promise<StoredImage> {
    const key = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.config.bucket,
          Key: this.objectKey(key),
          Body: bytes,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
        timed(),
      );
    } catch (err) {
      throw new DependencyDownError('image store', err);
    }
    const base = this.config.publicBaseUrl;
    return { key, url: base ? `${base}/${this.objectKey(key)}` : `${this.publicUrl}/images/${key}` };
  }

  async get(key: string): Promise<FoundImage | null> {
    if (!IMAGE_KEY.test(key)) return null;
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
        timed(),
      );
      const bytes = Buffer.from(await out.Body!.transformToByteArray());
      return { bytes, contentType: IMAGE_TYPES[key.split('.')[1]], lastModified: out.LastModified };
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return null;
      throw new DependencyDownError('image store', err);
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }), timed());
      return true;
    } catch {
      return false;
    }
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }), timed());
  }
}
