import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './interface.ts';

/** Writes each message as an .eml file (the embedded default when no SMTP server is configured). */
export class FileMailer implements Mailer {
  private readonly builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(private readonly dir: string) {}

  async send(message: MailMessage): Promise<void> {
    const info = await this.builder.sendMail(message);
    await fs.mkdir(this.dir, { recursive: true });
    const name = `${message.messageId.replace(/[<>]/g, '').replace(/[^A-Za-z0-9_.@-]/g, '_')}.eml`;
    const tmp = path.join(this.dir, `.${name}.tmp`);
    await fs.writeFile(tmp, info.message as Buffer);
    await fs.rename(tmp, path.join(this.dir, name));
  }

  async close(): Promise<void> {}
}
