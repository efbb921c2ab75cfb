import { CONTENT_TYPES, FORMATS, type RenderFormat } from '../../render/options.ts';

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
  put(bytes: Buffer, ext: RenderFormat, contentType: string): Promise<StoredImage>;
  /** Bytes for serving through the service, and when they were stored; null when absent. */
  get(key: string): Promise<FoundImage | null>;
  ping(): Promise<void>;
}

/** `<sha256>.<format>` for every output format of the options schema. */
export const IMAGE_KEY = new RegExp(`^[0-9a-f]{64}\\.(${FORMATS.join('|')})$`);

export const IMAGE_TYPES: Readonly<Record<string, string>> = CONTENT_TYPES;
