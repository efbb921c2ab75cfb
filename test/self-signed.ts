import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A one-day self-signed certificate for localhost, made with openssl in `dir`. */
export function selfSignedCert(dir: string): { cert: Buffer; key: Buffer } {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
    ],
    { stdio: 'ignore' },
  );
  return { cert: fs.readFileSync(cert), key: fs.readFileSync(key) };
}
