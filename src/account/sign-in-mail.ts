import { escapeHtml } from '../render/html.ts';
import type { MailMessage } from '../notify/interface.ts';

/** The one-time sign-in link. The link is the whole secret: nothing else in the mail identifies the account. */
export function composeSignInMail(input: {
  to: string;
  from: string;
  link: string;
  validMinutes: number;
  messageId: string;
}): MailMessage {
  const text =
    `Sign in to postshot with this link:\n\n${input.link}\n\n` +
    `It works once and expires in ${input.validMinutes} minutes.\n` +
    'If you did not ask to sign in, ignore this e-mail; nothing happens without the link.\n';
  const html =
    '<!doctype html><html><body style="font-family:sans-serif;color:#0f1419">' +
    '<p><strong>Sign in to postshot</strong></p>' +
    `<p><a href="${escapeHtml(input.link)}">Sign in</a></p>` +
    `<p>The link works once and expires in ${input.validMinutes} minutes.</p>` +
    '<p>If you did not ask to sign in, ignore this e-mail; nothing happens without the link.</p>' +
    '</body></html>';
  return {
    to: input.to,
    from: input.from,
    subject: 'Your postshot sign-in link',
    text,
    html,
    messageId: input.messageId,
  };
}
