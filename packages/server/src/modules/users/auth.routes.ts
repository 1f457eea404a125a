import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  LoginBody,
  PublicUserHitsSchema,
  SessionSchema,
  SignupBody,
  UserJsonSchema,
  UserSearchQuery,
} from '@cairn/shared';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { presentUserStub } from '../requests/requests.presenter.js';
import { bodyFields, routesPlugin } from '../../lib/http.js';
import { documentedBody, documentedResponse, noContent } from '../../lib/openapi.js';
import type { Config } from '../../config.js';
import { CSRF_COOKIE, ensureCsrfCookie, requireUser, SESSION_COOKIE } from '../../plugins/auth.js';
import type { User, UsersService } from './users.service.js';

const SESSION = documentedResponse(
  SessionSchema,
  'The signed-in person; the session cookie is set',
);

const tags = ['Accounts (Cairn extension)'];
const THROTTLED =
  'Throttled per e-mail address and per client address (CAIRN_RATE_LIMIT_*): past either limit the answer is 429 with Retry-After.';

function publicUser(user: User) {
  return { id: String(user.id), email: user.email, name: user.name, is_admin: user.isAdmin };
}

/** Sign-up, log-in and log-out for the browser; API clients use personal access tokens instead. */
export const authRoutes = routesPlugin<{ config: Config; users: UsersService }>(
  (app: FastifyInstance, { config, users }) => {
    const secure = config.siteUrl.startsWith('https://');

    async function startSession(reply: FastifyReply, user: User) {
      const { token, expiresAt } = await users.createSession(user.id);
      void reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure,
        expires: expiresAt,
      });
    }

    app.post(
      '/api/auth/login',
      {
        config: { throttle: 'login' },
        schema: {
          response: { 200: SESSION },
          tags,
          summary: 'Log in with email and password; sets the session cookie',
          description: THROTTLED,
          body: documentedBody(LoginBody),
        },
      },
      async (request, reply) => {
        const body = bodyFields(request.body);
        const user = await users.authenticate(body.email, body.password);
        await startSession(reply, user);
        return reply.send({ user: publicUser(user) });
      },
    );

    app.post(
      '/api/auth/signup',
      {
        config: { throttle: 'signup' },
        schema: {
          response: { 201: SESSION },
          tags,
          summary: 'Create an account and log in',
          description: THROTTLED,
          body: documentedBody(SignupBody),
        },
      },
      async (request, reply) => {
        const body = bodyFields(request.body);
        const user = await users.createUser({
          email: body.email,
          password: body.password,
          name: body.name,
        });
        await startSession(reply, user);
        return reply.status(201).send({ user: publicUser(user) });
      },
    );

    app.post(
      '/api/auth/logout',
      { schema: { response: { 204: noContent('Logged out') }, tags, summary: 'End the session' } },
      async (request, reply) => {
        const token = request.cookies[SESSION_COOKIE];
        if (token) await users.endSession(token);
        void reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return reply.status(204).send();
      },
    );

    app.get(
      '/api/me',
      {
        schema: {
          response: { 200: documentedResponse(UserJsonSchema, 'The signed-in person') },
          tags,
          summary: 'The signed-in user (403 when anonymous)',
        },
      },
      async (request, reply) => {
        ensureCsrfCookie(request, reply, secure);
        return reply.send(publicUser(requireUser(request)));
      },
    );

    app.withTypeProvider<ZodTypeProvider>().get(
      '/api/users',
      {
        schema: {
          querystring: UserSearchQuery,
          response: { 200: documentedResponse(PublicUserHitsSchema, 'People found, by name') },
          tags,
          summary:
            'Find people to invite or share with: q is part of a name (two characters at least) or a whole e-mail address; at most 20 (403 when anonymous)',
        },
      },
      async (request, reply) => {
        requireUser(request);
        const size = Math.min(request.query.size ?? 10, 20);
        const found = await users.search(request.query.q ?? '', size);
        return reply.send({
          hits: { hits: found.map((u) => presentUserStub(u.id, u)), total: found.length },
        });
      },
    );

    // A plain link can log out: GET is safe here because SameSite=Lax cookies still reach it only
    // from a top-level navigation, and logging someone out is the worst a forged link can do.
    app.get('/logout', async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await users.endSession(token);
      void reply.clearCookie(SESSION_COOKIE, { path: '/' });
      void reply.clearCookie(CSRF_COOKIE, { path: '/' });
      return reply.redirect('/');
    });
  },
);
