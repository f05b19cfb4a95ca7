import { logoutContract, REFRESH_COOKIE } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import type { TSessionService } from '../../services/session.service';

export const logoutRoute = ({ sessions }: { sessions: Pick<TSessionService, 'logout'> }) =>
  defineHandler(logoutContract, async (_input, ctx) => {
    await sessions.logout(ctx.req.cookies?.[REFRESH_COOKIE.name]);
    return { status: 204, clearCookies: [REFRESH_COOKIE] };
  });
