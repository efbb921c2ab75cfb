export interface StoredImage {
  /** `<sha256>.<ext>` */
  key: string;
  url: string;
}

export interface FoundImage {
  bytes: Buffer;
  contentType: string;
  lastModified?: Date;
}

/** Rendered outputs kept under their content hash, for returnType=url. */
export interface ImageStore {
  readonly kind: 'disk' | 's3';
  put(bytes: Buffer, ext: 'png' | 'svg' | 'html', contentType: string): Promise<StoredImage>;
  /** Bytes for serving through the service, and when they were stored; null when absent. */
  get(key: string): Promise<FoundImage | null>;
  ping(): Promise<void>;
}

export const IMAGE_KEY = /^[0-9a-f]{64}\.(png|svg|html)$/;

export const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  svg: 'image/svg+xml',
  html: 'text/html; charset=utf-8',
};
