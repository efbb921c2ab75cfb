import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'postshot_session';

/** HttpOnly, SameSite=Lax, Secure when the request came over HTTPS; only sent to /account. */
export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: number): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/account',
    httpOnly: true,
    sameSite: 'lax',
    secure: 'auto',
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/account', httpOnly: true, sameSite: 'lax', secure: 'auto' });
}

export function readSessionCookie(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}
