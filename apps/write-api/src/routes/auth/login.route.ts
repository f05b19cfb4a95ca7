import { loginContract, REFRESH_COOKIE } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import { REFRESH_TOKEN_TTL_SECONDS, type TSessionService } from '../../services/session.service';

export const loginRoute = ({ sessions }: { sessions: Pick<TSessionService, 'login'> }) =>
  defineHandler(loginContract, async ({ body }, ctx) => {
    const tokens = await sessions.login(body.email, body.password, { ip: ctx.req.ip ?? 'unknown', correlationId: ctx.correlationId });
    return {
      status: 200,
      headers: { 'Cache-Control': 'no-store' },
      body: { access_token: tokens.accessToken, token_type: 'Bearer', expires_in: tokens.expiresIn },
      setCookies: [{ ...REFRESH_COOKIE, value: tokens.refreshToken, maxAgeSeconds: REFRESH_TOKEN_TTL_SECONDS }],
    };
  });
