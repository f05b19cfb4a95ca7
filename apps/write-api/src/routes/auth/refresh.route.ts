import { REFRESH_COOKIE, refreshContract } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import { REFRESH_TOKEN_TTL_SECONDS, type TSessionService } from '../../services/session.service';

export const refreshRoute = ({ sessions }: { sessions: Pick<TSessionService, 'refresh'> }) =>
  defineHandler(refreshContract, async (_input, ctx) => {
    const tokens = await sessions.refresh(ctx.req.cookies?.[REFRESH_COOKIE.name]);
    return {
      status: 200,
      headers: { 'Cache-Control': 'no-store' },
      body: { access_token: tokens.accessToken, token_type: 'Bearer', expires_in: tokens.expiresIn },
      setCookies: [{ ...REFRESH_COOKIE, value: tokens.refreshToken, maxAgeSeconds: REFRESH_TOKEN_TTL_SECONDS }],
    };
  });
