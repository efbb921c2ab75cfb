import type { Account } from '../../storage/accounts/interface.ts';
import { html, type SafeHtml } from './html.ts';

export type Section = 'overview' | 'keys' | 'quickstart' | 'profile';

const NAV: Array<[Section, string, string]> = [
  ['overview', 'Overview', '/account'],
  ['keys', 'API keys', '/account/keys'],
  ['quickstart', 'Quickstart', '/account/quickstart'],
  ['profile', 'Profile', '/account/profile'],
];

export interface LayoutInput {
  title: string;
  body: SafeHtml;
  /** Set on signed-in pages: shows the navigation and the sign-out button. */
  signedIn?: { account: Account; csrf: string; section: Section };
}

/** Every account page: no inline script or style, so the CSP can forbid both. */
export function layout(input: LayoutInput): string {
  const s = input.signedIn;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${input.title} · postshot</title>
<link rel="stylesheet" href="/account/assets/account.css">
<script src="/account/assets/account.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/account">postshot</a>
  ${
    s
      ? html`<nav aria-label="Account">
    <ul>${NAV.map(
      ([id, label, href]) =>
        html`<li><a href="${href}"${id === s.section ? html` aria-current="page"` : ''}>${label}</a></li>`,
    )}</ul>
  </nav>
  <form class="signout" method="post" action="/account/sign-out">
    <input type="hidden" name="_csrf" value="${s.csrf}">
    <button type="submit" class="link">Sign out</button>
  </form>`
      : ''
  }
</header>
<main id="main" tabindex="-1">
${input.body}
</main>
<footer class="foot"><a href="/docs">API documentation</a></footer>
</body>
</html>
`.value;
}
