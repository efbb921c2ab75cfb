import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { buildOverview } from '../../account/overview.ts';
import { MAX_ACTIVE_KEYS, MAX_KEY_NAME } from '../../account/keys.ts';
import { hasUnsafeCharacter } from '../../account/names.ts';
import { isWellFormedToken } from '../../account/secret-token.ts';
import type { Container } from '../../container.ts';
import type { Account } from '../../storage/accounts/interface.ts';
import {
  checkEmailPage,
  keysPage,
  messagePage,
  overviewPage,
  profilePage,
  quickstartPage,
  revokePage,
  signInPage,
  verifyPage,
} from './pages.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './session-cookie.ts';

const Csrf = Type.String({ maxLength: 256 });
const SignInBody = Type.Object({ _csrf: Csrf, email: Type.String({ maxLength: 320 }) });
const VerifyBody = Type.Object({ _csrf: Csrf, token: Type.String({ maxLength: 256 }) });
const CsrfBody = Type.Object({ _csrf: Csrf });
const CreateKeyBody = Type.Object({ _csrf: Csrf, name: Type.String({ maxLength: 200 }) });
const RevokeKeyBody = Type.Object({ _csrf: Csrf, keyId: Type.String({ maxLength: 100 }) });
const ProfileBody = Type.Object({ _csrf: Csrf, displayName: Type.String({ maxLength: 400 }) });

const HTML = 'text/html; charset=utf-8';
const MAX_DISPLAY_NAME = 80;

const KEY_ERRORS = {
  invalid_name: `No key was created: give it a name of 1 to ${MAX_KEY_NAME} characters, without control characters or bidi overrides.`,
  too_many_keys: `No key was created: an account can have at most ${MAX_ACTIVE_KEYS} active keys. Revoke one first.`,
} as const;

function invalidLinkPage(reason: 'invalid_link' | 'signup_closed'): string {
  return messagePage({
    title: 'Link not valid',
    message:
      reason === 'signup_closed'
        ? 'New accounts cannot be created on this service.'
        : 'This sign-in link was already used, has expired or was replaced. Request a new one.',
    link: ['/account/sign-in', 'Request a new link'],
  });
}

interface SignedIn {
  account: Account;
  csrf: string;
}

/** The route handlers of /account (registered under that prefix). */
export function registerAccountRoutes(parent: FastifyInstance, c: Container): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { signIn, sessions, keys, store } = c.account;
  const protect = { preValidation: app.csrfProtection };

  /** The signed-in account, or a redirect to the sign-in page (and null). */
  async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null> {
    const cookie = readSessionCookie(request);
    const found = await sessions.resolve(cookie);
    if (!found) {
      if (cookie !== undefined) clearSessionCookie(reply);
      await reply.redirect('/account/sign-in', 303);
      return null;
    }
    return { account: found.account, csrf: reply.generateCsrf() };
  }

  const page = (reply: FastifyReply, body: string, status = 200) => reply.code(status).type(HTML).send(body);

  app.get('/', async (request, reply) => {
    const s = await signedIn(request, reply);
    if (!s) return reply;
    const [overview, displayName] = await Promise.all([
      buildOverview(c, s.account),
      store.getDisplayName(s.account.id),
    ]);
    return page(reply, overviewPage({ overview, displayName, csrf: s.csrf }));
  });

  app.get('/sign-in', async (request, reply) => {
    if (await sessions.resolve(readSessionCookie(request))) return reply.redirect('/account', 303);
    return page(reply, signInPage({ csrf: reply.generateCsrf(), signupOpen: c.config.signup === 'open' }));
  });

  app.post('/sign-in', { ...protect, schema: { body: SignInBody } }, async (request, reply) => {
    const result = await signIn.request(request.body.email, request.ip);
    if (result.ok) return page(reply, checkEmailPage(result.email));
    const retryMinutes = result.reason === 'rate_limited' ? Math.max(1, Math.ceil(result.retryAfterSeconds / 60)) : 0;
    if (result.reason === 'rate_limited') reply.header('Retry-After', String(result.retryAfterSeconds));
    return page(
      reply,
      signInPage({
        csrf: reply.generateCsrf(),
        signupOpen: c.config.signup === 'open',
        email: request.body.email,
        error:
          result.reason === 'rate_limited'
            ? `Too many sign-in requests. Try again in ${retryMinutes} minute${retryMinutes === 1 ? '' : 's'}.`
            : 'Enter a valid e-mail address, such as name@example.com.',
      }),
      result.reason === 'rate_limited' ? 429 : 400,
    );
  });

  // The link opens a page with a button rather than signing in on GET: mail scanners that fetch
  // links would otherwise use it up, and the token never reaches a log as a used credential.
  // No schema: a link mangled on its way (cut, doubled, padded) is an invalid link, not a form error.
  app.get('/verify', async (request, reply) => {
    const token = (request.query as { token?: unknown }).token;
    if (!isWellFormedToken('psl', token)) return page(reply, invalidLinkPage('invalid_link'), 400);
    return page(reply, verifyPage({ csrf: reply.generateCsrf(), token }));
  });

  app.post('/verify', { ...protect, schema: { body: VerifyBody } }, async (request, reply) => {
    const result = await signIn.verify(request.body.token);
    if (!result.ok) return page(reply, invalidLinkPage(result.reason), 400);
    // A new session on every sign-in: a session id planted before sign-in is never promoted.
    await sessions.signOut(readSessionCookie(request));
    const { token, expiresAt } = await sessions.create(result.account.id);
    setSessionCookie(reply, token, expiresAt);
    return reply.redirect('/account', 303);
  });

  app.post('/sign-out', { ...protect, schema: { body: CsrfBody } }, async (request, reply) => {
    await sessions.signOut(readSessionCookie(request));
    clearSessionCookie(reply);
    return reply.redirect('/account/sign-in', 303);
  });

  app.post('/sign-out-everywhere', { ...protect, schema: { body: CsrfBody } }, async (request, reply) => {
    const s = await signedIn(request, reply);
    if (!s) return reply;
    await sessions.signOutEverywhere(s.account);
    clearSessionCookie(reply);
    return reply.redirect('/account/sign-in', 303);
  });

  app.get('/keys', async (request, reply) => {
    const s = await signedIn(request, reply);
    if (!s) return reply;
    return page(reply, keysPage({ account: s.account, csrf: s.csrf, keys: await keys.list(s.account.id) }));
  });

  app.post('/keys', { ...protect, schema: { body: CreateKeyBody } }, async (request, reply) => {
    const s = await signedIn(request, reply);
    if (!s) return reply;
    const created = await keys.create(s.account.id, request.body.name);
    const list = await keys.list(s.account.id);
    if (!created.ok) {
      return page(
        reply,
        keysPage({
          account: s.account,
          csrf: s.csrf,
          keys: list,
          error: KEY_ERRORS[created.reason],
          name: request.body.name,
        }),
        400,
      );
    }
    // Shown in this response only (no redirect, no-store): the plaintext never goes into a URL or a cache.
    return page(reply, keysPage({ account: s.account, csrf: s.csrf, keys: list, created }));
  });

  // No schema: an id no key has, however long, is a page that does not exist (404).
  app.get('/keys/:id/revoke', async (request, reply) => {
    const s = await signedIn(request, reply);
    if (!s) return reply;
    const { id } = request.params as { id: string };
    const key = (await keys.list(s.account.id)).find((k) => k.id === id && k.revokedAt === null);
    if (!key) return reply.callNotFound();
    return page(reply, revokePage({ account: s.account, csrf: s.csrf, key }));
  });

  app.post('/keys/revoke', { ...protect, schema: { body: RevokeKeyBody } }, async (request, reply) => {
    const s = await signedIn(request, reply);
    if (!s) return reply;
    const result = await keys.revoke(s.account.id, request.body.keyId);
    if (!result.ok) return reply.callNotFound();
    return reply.redirect('/account/keys', 303);
  });

  app.get('/quickstart', async (request, reply) => {
    const s = await signedIn(request, reply);
    if (!s) return reply;
    const active = (await keys.list(s.account.id)).find((k) => k.revokedAt === null);
    return page(
      reply,
      quickstartPage({
        account: s.account,
        csrf: s.csrf,
        publicUrl: c.config.publicUrl,
        prefix: active?.prefix ?? null,
        examplePostIds: c.examplePostIds,
      }),
    );
  });

  app.get('/profile', async (request, reply) => {
    const s = await signedIn(request, reply);
    if (!s) return reply;
    const displayName = await store.getDisplayName(s.account.id);
    return page(reply, profilePage({ account: s.account, csrf: s.csrf, displayName }));
  });

  app.post('/profile', { ...protect, schema: { body: ProfileBody } }, async (request, reply) => {
    const s = await signedIn(request, reply);
    if (!s) return reply;
    const name = request.body.displayName.trim().replace(/\s+/g, ' ');
    const error =
      name.length > MAX_DISPLAY_NAME
        ? `A display name has at most ${MAX_DISPLAY_NAME} characters.`
        : hasUnsafeCharacter(name)
          ? 'A display name cannot hold control characters or bidi overrides.'
          : null;
    if (error) {
      const displayName = await store.getDisplayName(s.account.id);
      return page(reply, profilePage({ account: s.account, csrf: s.csrf, displayName, error }), 400);
    }
    await store.setDisplayName(s.account.id, name || null);
    return page(reply, profilePage({ account: s.account, csrf: s.csrf, displayName: name || null, saved: true }));
  });
}
