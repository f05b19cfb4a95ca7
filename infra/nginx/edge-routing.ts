// Where the edge sends a request, as rules, and the check that every route-table row lands on
// the plane it declares. The nginx text is rendered from these same rules (edge-config.ts), so
// the simulation here and the generated config cannot disagree about the prefixes or the methods.
import type { THttpMethod, TPlane, TRouteContract } from '@palisade/contracts';

/** Edge policy of a location: how big a body, whether it is buffered, how long a response may take. */
export type TEdgePolicy = 'api' | 'upload' | 'stream';

export interface TZone {
  prefix: string;
  /** Fixed plane of a reserved prefix; `null` means "by method" (the general API). */
  plane: TPlane | null;
  policy: TEdgePolicy;
}

/**
 * The reserved prefixes and the general API, in the order they are rendered. Every reserved
 * prefix is a `^~` location, so nginx never consults a regex outside it for these paths.
 */
export const ZONES: readonly TZone[] = [
  { prefix: '/api/v2/callbacks/', plane: 'callback', policy: 'upload' },
  { prefix: '/api/v2/webhooks/', plane: 'callback', policy: 'upload' },
  { prefix: '/api/v2/events/', plane: 'sse', policy: 'stream' },
  { prefix: '/api/v2/admin/', plane: 'admin', policy: 'api' },
  { prefix: '/api/v2/', plane: null, policy: 'api' },
];

/** The general API splits by method; any other method is a 405 at the edge. */
export const METHOD_PLANES: Readonly<Record<THttpMethod, TPlane>> = {
  GET: 'read',
  HEAD: 'read',
  POST: 'write',
  PUT: 'write',
  PATCH: 'write',
  DELETE: 'write',
};

export const POLICY_FOR_PLANE: Readonly<Record<TPlane, TEdgePolicy>> = {
  read: 'api',
  write: 'api',
  callback: 'upload',
  sse: 'stream',
  admin: 'api',
};

/**
 * A row the prefix and method rules would send elsewhere gets a regex location of its own,
 * nested in the zone its path falls in. Only the general API allows that: a row on the wrong
 * plane under a reserved prefix is refused, because those prefixes carry plane-specific edge
 * policy (64 MiB unbuffered bodies, unbuffered streams, admin isolation).
 */
export interface TOverride {
  regex: string;
  /** Methods sent to `plane`; other methods at this path keep the zone's rule. */
  methods: THttpMethod[];
  plane: TPlane;
  zone: TZone;
  operationIds: string[];
}

export class EdgeRoutingError extends Error {
  constructor(readonly problems: string[]) {
    super(`the route table cannot be served by the edge rules:\n  ${problems.join('\n  ')}`);
  }
}

const PARAM = /^:([A-Za-z_$][\w$]*)$/;
const SPLAT = /^\*([A-Za-z_$][\w$]*)$/;

/** nginx (PCRE) regex for an Express path: `:param` is one segment, `*splat` one or more; trailing slash optional as in Express. */
export function pathRegex(path: string): string {
  const segments = path.split('/').slice(1);
  const parts = segments.map((segment) => {
    if (PARAM.test(segment)) return '[^/]+';
    if (SPLAT.test(segment)) return '.+';
    if (/[:*?+(){}!\\]/.test(segment)) {
      throw new EdgeRoutingError([`${path}: segment "${segment}" uses path syntax the edge generator does not translate`]);
    }
    return segment.replace(/[.^$|[\]]/g, (c) => `\\${c}`);
  });
  return `^/${parts.join('/')}/?$`;
}

/** A concrete URI the row's path matches: each parameter becomes a plain segment. */
export function samplePath(path: string): string {
  return path
    .split('/')
    .map((segment) => (PARAM.test(segment) || SPLAT.test(segment) ? 'sample' : segment))
    .join('/');
}

export function zoneFor(uri: string): TZone | null {
  // The longest matching prefix wins, as in nginx; ZONES holds no prefix of another except /api/v2/.
  let best: TZone | null = null;
  for (const zone of ZONES) {
    if (uri.startsWith(zone.prefix) && (!best || zone.prefix.length > best.prefix.length)) best = zone;
  }
  return best;
}

/** The plane nginx picks for a request, given the overrides rendered into the config; null = edge 404/405. */
export function edgePlaneFor(method: THttpMethod, uri: string, overrides: readonly TOverride[]): TPlane | null {
  const zone = zoneFor(uri);
  if (!zone) return null;
  // Nested regex locations are tried in config order; the first match takes the request.
  const override = overrides.find((o) => o.zone === zone && new RegExp(o.regex).test(uri));
  if (override?.methods.includes(method)) return override.plane;
  return zone.plane ?? METHOD_PLANES[method] ?? null;
}

/**
 * Overrides for the rows the plain rules would misroute, then a full re-simulation of every row
 * (an override regex can swallow a sibling path). Throws EdgeRoutingError listing every problem.
 */
export function planEdgeRoutes(routes: readonly TRouteContract[]): TOverride[] {
  const problems: string[] = [];
  const overrides: TOverride[] = [];
  for (const route of routes) {
    const label = `${route.method} ${route.path} (${route.operationId}, plane ${route.plane})`;
    let uri: string;
    let regex: string;
    try {
      uri = samplePath(route.path);
      regex = pathRegex(route.path);
    } catch (error) {
      problems.push(...(error instanceof EdgeRoutingError ? error.problems : [String(error)]));
      continue;
    }
    const zone = zoneFor(uri);
    if (!zone) {
      problems.push(`${label}: not under /api/v2/`);
      continue;
    }
    if (edgePlaneFor(route.method, uri, []) === route.plane) continue;
    if (zone.plane) {
      problems.push(`${label}: ${zone.prefix} is reserved for the ${zone.plane} plane; move the route or its plane`);
      continue;
    }
    // Express answers HEAD with the GET handler, so a GET override takes HEAD with it.
    const methods: THttpMethod[] = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
    const existing = overrides.find((o) => o.regex === regex);
    if (existing && existing.plane !== route.plane) {
      problems.push(`${label}: the same path already has an edge override to the ${existing.plane} plane`);
    } else if (existing) {
      for (const m of methods) if (!existing.methods.includes(m)) existing.methods.push(m);
      existing.operationIds.push(route.operationId);
    } else {
      overrides.push({ regex, methods, plane: route.plane, zone, operationIds: [route.operationId] });
    }
  }
  for (const route of routes) {
    let uri: string;
    try {
      uri = samplePath(route.path);
    } catch {
      continue;
    }
    const landed = edgePlaneFor(route.method, uri, overrides);
    if (zoneFor(uri) && landed !== route.plane && !problems.some((p) => p.includes(`(${route.operationId},`))) {
      problems.push(
        `${route.method} ${route.path} (${route.operationId}): declared on ${route.plane} but the edge would send it to ` +
          `${landed ?? 'nobody'} (an override regex of another route swallows it)`,
      );
    }
  }
  if (problems.length) throw new EdgeRoutingError(problems);
  return overrides;
}
