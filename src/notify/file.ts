import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './interface.ts';

/** Control characters other than line breaks and tabs as \u{..}: the file is read in a terminal. */
function showControls(text: string): string {
  return text.replace(/[^\P{Cc}\n\t]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/**
 * Writes each message as an .eml file (the embedded default when no SMTP server is configured),
 * and its plain text beside it as a .txt to read with cat: the .eml's text part is
 * quoted-printable whenever a line is long, and a sign-in link's always is (`=3D`, split lines).
 */
export class FileMailer implements Mailer {
  private readonly builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(private readonly dir: string) {}

  async send(message: MailMessage): Promise<void> {
    const info = await this.builder.sendMail(message);
    await fs.mkdir(this.dir, { recursive: true });
    const name = message.messageId.replace(/[<>]/g, '').replace(/[^A-Za-z0-9_.@-]/g, '_');
    const readable = showControls(`To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}`);
    // The .eml last: once it is there, the message is complete; without it, no link lies about.
    await this.write(`${name}.txt`, readable);
    try {
      await this.write(`${name}.eml`, info.message as Buffer);
    } catch (err) {
      await fs.rm(path.join(this.dir, `${name}.txt`), { force: true });
      throw err;
    }
  }

  private async write(name: string, data: string | Buffer): Promise<void> {
    const tmp = path.join(this.dir, `.${name}.tmp`);
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, path.join(this.dir, name));
  }

  async close(): Promise<void> {}
}
