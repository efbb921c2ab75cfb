import type { Overview } from '../../account/overview.ts';
import { PLANS, type Plan } from '../../quota/plans.ts';
import type { Account, ApiKeyRecord } from '../../storage/accounts/interface.ts';
import { FAMILIES, renderUsageChart } from './chart.ts';
import { formatDate, formatDateTime, formatNumber, planLabel } from './format.ts';
import { html, type SafeHtml } from './html.ts';
import { layout } from './layout.ts';

const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

function alert(message: string | undefined): SafeHtml | '' {
  return message ? html`<p class="alert" role="alert">${message}</p>` : '';
}

export function signInPage(input: { csrf: string; email?: string; error?: string; signupOpen: boolean }): string {
  return layout({
    title: 'Sign in',
    body: html`<section class="card narrow">
  <h1>Sign in</h1>
  <p>${input.signupOpen ? 'Enter your e-mail address. We send you a sign-in link; a new address gets a free account with 50 credits.' : 'Enter the e-mail address of your account. We send you a sign-in link.'}</p>
  ${alert(input.error)}
  <form method="post" action="/account/sign-in" class="stack">
    ${csrfField(input.csrf)}
    <label for="email">E-mail address</label>
    <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${input.email ?? ''}" autofocus>
    <button type="submit" class="primary">Send sign-in link</button>
  </form>
</section>`,
  });
}

export function checkEmailPage(email: string): string {
  return layout({
    title: 'Check your e-mail',
    body: html`<section class="card narrow">
  <h1>Check your e-mail</h1>
  <p>If <strong>${email}</strong> can sign in here, a sign-in link is on its way. It works once and expires in 15 minutes.</p>
  <p><a href="/account/sign-in">Use another address</a></p>
</section>`,
  });
}

export function verifyPage(input: { csrf: string; token: string }): string {
  return layout({
    title: 'Sign in',
    body: html`<section class="card narrow">
  <h1>Continue to your account</h1>
  <p>This link signs you in on this browser. It works once.</p>
  <form method="post" action="/account/verify">
    ${csrfField(input.csrf)}
    <input type="hidden" name="token" value="${input.token}">
    <button type="submit" class="primary">Sign in</button>
  </form>
</section>`,
  });
}

export function messagePage(input: { title: string; message: string; link?: [string, string] }): string {
  return layout({
    title: input.title,
    body: html`<section class="card narrow">
  <h1>${input.title}</h1>
  <p>${input.message}</p>
  ${input.link ? html`<p><a href="${input.link[0]}">${input.link[1]}</a></p>` : ''}
</section>`,
  });
}

export function overviewPage(input: { overview: Overview; displayName: string | null; csrf: string }): string {
  const { account, usage, days, totals, mails } = input.overview;
  const resets = usage.periodEnd === null ? 'does not reset' : formatDate(usage.periodEnd);
  const pct = usage.limit > 0 ? Math.min(100, Math.round((usage.used / usage.limit) * 100)) : 0;
  return layout({
    title: 'Overview',
    signedIn: { account, csrf: input.csrf, section: 'overview' },
    body: html`<h1>${input.displayName ? `Hello, ${input.displayName}` : 'Overview'}</h1>
<section class="card" aria-labelledby="quota-h">
  <h2 id="quota-h">${planLabel(usage.plan)} plan</h2>
  <dl class="stats">
    <div><dt>Credits used</dt><dd data-testid="used">${formatNumber(usage.used)}</dd></div>
    <div><dt>Limit</dt><dd data-testid="limit">${formatNumber(usage.limit)}</dd></div>
    <div><dt>Remaining</dt><dd data-testid="remaining">${formatNumber(usage.remaining)}</dd></div>
  </dl>
  <progress max="${usage.limit}" value="${usage.used}" aria-label="Credits used: ${pct}%">${pct}%</progress>
  <dl class="dates">
    <div><dt>Period started</dt><dd>${formatDate(usage.periodStart)}</dd></div>
    <div><dt>Resets</dt><dd data-testid="resets">${resets}</dd></div>
  </dl>
  ${PLANS[usage.plan].period === 'one_time' ? html`<p class="muted">The free plan's ${usage.limit} credits are a one-time allowance. Ask the operator of this service to change your plan.</p>` : ''}
</section>
<section class="card" aria-labelledby="chart-h">
  <h2 id="chart-h">Requests per day</h2>
  <ul class="legend">${FAMILIES.map(([f, label]) => html`<li><span class="swatch bar-${f}" aria-hidden="true"></span>${label}: <strong data-testid="total-${f}">${totals[f]}</strong></li>`)}</ul>
  ${renderUsageChart(days)}
  <details>
    <summary>Show as a table</summary>
    <table class="data">
      <thead><tr><th scope="col">Day (UTC)</th>${FAMILIES.map(([, l]) => html`<th scope="col">${l}</th>`)}<th scope="col">Credits</th></tr></thead>
      <tbody>${days
        .filter((d) => d.credits > 0 || d.requests.screenshot + d.requests.content + d.requests.bulk > 0)
        .map(
          (d) =>
            html`<tr><th scope="row">${formatDate(d.day)}</th>${FAMILIES.map(([f]) => html`<td>${d.requests[f]}</td>`)}<td>${d.credits}</td></tr>`,
        )}</tbody>
    </table>
  </details>
</section>
<section class="card" aria-labelledby="mail-h">
  <h2 id="mail-h">Quota e-mails</h2>
  ${
    mails.length === 0
      ? html`<p class="muted">None this period. We write when you reach 50 %, 70 %, 90 % and 100 % of your quota.</p>`
      : html`<ul class="plain">${mails.map(
          (m) =>
            html`<li>${m.threshold} % reached · ${m.sentAt === null ? 'queued' : `sent ${formatDateTime(m.sentAt)}`}</li>`,
        )}</ul>`
  }
</section>`,
  });
}

function keyStatus(k: ApiKeyRecord): SafeHtml {
  return k.revokedAt === null
    ? html`<span class="badge ok">Active</span>`
    : html`<span class="badge off">Revoked ${formatDate(k.revokedAt)}</span>`;
}

export function keysPage(input: {
  account: Account;
  csrf: string;
  keys: ApiKeyRecord[];
  created?: { key: ApiKeyRecord; apiKey: string };
  error?: string;
  name?: string;
}): string {
  const created = input.created;
  return layout({
    title: 'API keys',
    signedIn: { account: input.account, csrf: input.csrf, section: 'keys' },
    body: html`<h1>API keys</h1>
${
  created
    ? html`<section class="card created" aria-labelledby="new-h">
  <h2 id="new-h">Key “${created.key.name ?? ''}” created</h2>
  <p>Copy it now: it is shown only this once. We keep only a digest of it.</p>
  <div class="copy-row">
    <label for="new-key" class="sr-only">New API key</label>
    <input id="new-key" class="mono" readonly value="${created.apiKey}" data-testid="new-key">
    <button type="button" class="primary" data-copy="new-key" hidden>Copy</button>
  </div>
</section>`
    : ''
}
<section class="card" aria-labelledby="create-h">
  <h2 id="create-h">Create a key</h2>
  ${alert(input.error)}
  <form method="post" action="/account/keys" class="inline">
    ${csrfField(input.csrf)}
    <label for="key-name">Name</label>
    <input id="key-name" name="name" required maxlength="60" placeholder="e.g. production" value="${input.name ?? ''}">
    <button type="submit" class="primary">Create key</button>
  </form>
</section>
<section class="card" aria-labelledby="list-h">
  <h2 id="list-h">Your keys</h2>
  ${
    input.keys.length === 0
      ? html`<p class="muted">No keys yet.</p>`
      : html`<div class="table-wrap"><table class="data keys">
    <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
    <tbody>${input.keys.map(
      (k) => html`<tr data-key-id="${k.id}">
      <th scope="row">${k.name ?? 'Unnamed'}</th>
      <td class="mono" data-label="Key">${k.prefix}…</td>
      <td data-label="Created">${formatDate(k.createdAt)}</td>
      <td data-label="Last used">${k.lastUsedAt === null ? 'Never' : formatDateTime(k.lastUsedAt)}</td>
      <td>${keyStatus(k)}</td>
      <td>${k.revokedAt === null ? html`<a class="danger-link" href="/account/keys/${k.id}/revoke">Revoke<span class="sr-only"> ${k.name ?? k.prefix}</span></a>` : ''}</td>
    </tr>`,
    )}</tbody>
  </table></div>`
  }
</section>`,
  });
}

export function revokePage(input: { account: Account; csrf: string; key: ApiKeyRecord }): string {
  const k = input.key;
  return layout({
    title: 'Revoke key',
    signedIn: { account: input.account, csrf: input.csrf, section: 'keys' },
    body: html`<section class="card narrow">
  <h1>Revoke “${k.name ?? k.prefix}”?</h1>
  <p>Requests with the key <span class="mono">${k.prefix}…</span> are refused from the moment you confirm, on every instance of the service. This cannot be undone.</p>
  <form method="post" action="/account/keys/revoke" class="actions">
    ${csrfField(input.csrf)}
    <input type="hidden" name="keyId" value="${k.id}">
    <button type="submit" class="danger">Revoke key</button>
    <a href="/account/keys">Cancel</a>
  </form>
</section>`,
  });
}

function hostedUrlLine(plan: Plan, key: string, base: string, id: string): Array<[string, string]> {
  if (!PLANS[plan].canHostImages) return [];
  return [
    [
      'Screenshot as a hosted URL',
      `curl -H "X-API-KEY: ${key}" "${base}/api/v1/screenshot/${id}?format=png&returnType=url"`,
    ],
  ];
}

export function quickstartPage(input: {
  account: Account;
  csrf: string;
  publicUrl: string;
  prefix: string | null;
  examplePostIds: readonly [string, string];
}): string {
  const key = input.prefix ? `${input.prefix}…` : 'YOUR_API_KEY';
  const base = input.publicUrl;
  const [id, other] = input.examplePostIds;
  const lines: Array<[string, string]> = [
    ['Usage of your key', `curl -H "X-API-KEY: ${key}" ${base}/api/v1/usage`],
    [
      'Screenshot as PNG',
      `curl -H "X-API-KEY: ${key}" -o post.png "${base}/api/v1/screenshot/${id}?format=png&theme=dark"`,
    ],
    // Only a plan that can host images: on the others this line answers 403 plan_restricted.
    ...hostedUrlLine(input.account.plan, key, base, id),
    ['Markdown of one post', `curl -H "X-API-KEY: ${key}" -H "Accept: text/markdown" ${base}/api/v1/content/${id}`],
    [
      'Markdown of many posts',
      `curl -H "X-API-KEY: ${key}" -H "Content-Type: application/json" -d '{"tweetIds":["${id}","${other}"]}' ${base}/api/v1/content/tweets`,
    ],
  ];
  return layout({
    title: 'Quickstart',
    signedIn: { account: input.account, csrf: input.csrf, section: 'quickstart' },
    body: html`<h1>Quickstart</h1>
<section class="card">
  <p>${input.prefix ? html`These lines use your newest active key (<span class="mono">${key}</span>): put the whole key in its place. It was shown once, when you created it.` : html`You have no active key yet. <a href="/account/keys">Create one</a>, then put it in place of <span class="mono">YOUR_API_KEY</span>.`}</p>
  <p>The full reference is in the <a href="/docs">API documentation</a>.</p>
</section>
${lines.map(
  ([title, cmd], i) => html`<section class="card">
  <h2 id="qs-${i}">${title}</h2>
  <div class="copy-row">
    <pre class="code" id="cmd-${i}" aria-labelledby="qs-${i}"><code>${cmd}</code></pre>
    <button type="button" data-copy="cmd-${i}" hidden>Copy</button>
  </div>
</section>`,
)}`,
  });
}

export function profilePage(input: {
  account: Account;
  csrf: string;
  displayName: string | null;
  saved?: boolean;
  error?: string;
}): string {
  const a = input.account;
  return layout({
    title: 'Profile',
    signedIn: { account: a, csrf: input.csrf, section: 'profile' },
    body: html`<h1>Profile</h1>
<section class="card" aria-labelledby="who-h">
  <h2 id="who-h">Account</h2>
  <dl class="dates">
    <div><dt>E-mail</dt><dd>${a.email}</dd></div>
    <div><dt>Plan</dt><dd>${planLabel(a.plan)}</dd></div>
    <div><dt>Member since</dt><dd>${formatDate(a.createdAt)}</dd></div>
  </dl>
</section>
<section class="card" aria-labelledby="name-h">
  <h2 id="name-h">Display name</h2>
  ${alert(input.error)}
  ${input.saved ? html`<p class="notice" role="status">Saved.</p>` : ''}
  <form method="post" action="/account/profile" class="inline">
    ${csrfField(input.csrf)}
    <label for="display-name">Display name (optional)</label>
    <input id="display-name" name="displayName" maxlength="80" autocomplete="name" value="${input.displayName ?? ''}">
    <button type="submit">Save</button>
  </form>
</section>
<section class="card" aria-labelledby="sessions-h">
  <h2 id="sessions-h">Sessions</h2>
  <p>Signs out every browser signed in to this account, this one included, and voids sign-in links not used yet.</p>
  <form method="post" action="/account/sign-out-everywhere">
    ${csrfField(input.csrf)}
    <button type="submit" class="danger">Sign out everywhere</button>
  </form>
</section>`,
  });
}
