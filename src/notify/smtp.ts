import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './interface.ts';

/** Sends through an SMTP server; resolves only when the server has accepted the message. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(url: string) {
    this.transport = nodemailer.createTransport(url, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as never);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail(message);
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
