import type { TBaseEnv, TBuildPlane } from '@palisade/platform';

/** The sse plane. Its routes arrive with their issues; until then it serves health and the edge diagnostics. */
export const buildSse: TBuildPlane<TBaseEnv> = async () => ({ routes: [] });
