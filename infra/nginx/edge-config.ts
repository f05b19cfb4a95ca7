// Renders the edge's nginx configuration from the route table: one `http`-context include
// (upstreams, maps, the server with its locations) per target, and for the launcher and the test
// stack a standalone nginx.conf around it (pid, logs and temp paths under a prefix directory).
import { ERROR_CATALOGUE, PLANES, type TErrorCode, type TPlane, type TRouteContract } from '@palisade/contracts';
import { METHOD_PLANES, POLICY_FOR_PLANE, ZONES, planEdgeRoutes, type TEdgePolicy, type TOverride } from './edge-routing';

export interface TEdgeTarget {
  /** nginx `listen` value: `127.0.0.1:8080` locally, `8080` in a container. */
  listen: string;
  /** host:port of each plane. */
  upstreams: Readonly<Record<TPlane, string>>;
  /** Where the JSON access log goes when the server block sets one (containers: stdout). */
  accessLog?: string;
  /**
   * nginx include (a glob; nothing matching is fine) for `set_real_ip_from`/`real_ip_header`
   * where a trusted proxy sits in front of the edge (the Kubernetes Ingress controller).
   */
  realIpInclude?: string;
}

export const DEFAULT_PLANE_PORTS: Readonly<Record<TPlane, number>> = { read: 4101, write: 4102, callback: 4103, sse: 4104, admin: 4105 };
const SERVICE_NAMES: Readonly<Record<TPlane, string>> = { read: 'read-api', write: 'write-api', callback: 'callback-api', sse: 'sse', admin: 'admin-api' };

function upstreamsAt(host: (plane: TPlane) => string): Record<TPlane, string> {
  return Object.fromEntries(PLANES.map((plane) => [plane, `${host(plane)}:${DEFAULT_PLANE_PORTS[plane]}`])) as Record<TPlane, string>;
}

/**
 * The checked-in targets. `compose` names the planes by service name, which docker compose and
 * Kubernetes (Services of the same names, resolved through the pod's search domain) both resolve.
 */
export const TARGETS = {
  local: { file: 'palisade.conf', listen: '127.0.0.1:8080', upstreams: upstreamsAt(() => '127.0.0.1') },
  compose: {
    file: 'palisade.compose.conf',
    listen: '8080',
    upstreams: upstreamsAt((plane) => SERVICE_NAMES[plane]),
    accessLog: '/dev/stdout',
    realIpInclude: '/etc/nginx/palisade.d/real-ip*.conf',
  },
} as const satisfies Record<string, TEdgeTarget & { file: string }>;
export type TTargetName = keyof typeof TARGETS;

// What the edge itself refuses, with the spec's error body (correlation_id = the request id).
// `early`: nginx refuses these while still reading the request line or headers, when the request
// has no URI yet; a redirect to a named location then fails (nginx answers 500, "empty URI in
// redirect to named location"), so they go to an internal URI instead. `answer` is the status
// sent when nginx's own code is not HTTP's (494: a header too large).
const EDGE_ERRORS: ReadonlyArray<{ status: number; answer?: number; early?: true; code: TErrorCode; message: string }> = [
  { status: 400, early: true, code: 'bad_request', message: 'The edge could not read this request: it is not well-formed HTTP (or a percent-escape in its path is).' },
  { status: 414, early: true, code: 'uri_too_long', message: 'The request line is longer than the edge accepts (8 KiB).' },
  { status: 494, early: true, answer: 431, code: 'request_header_too_large', message: 'A request header (or the cookies) is larger than the edge accepts (8 KiB).' },
  { status: 404, code: 'route_not_found', message: 'No route here: the API is served under /api/v2/.' },
  { status: 405, code: 'method_not_allowed', message: 'The API does not serve this HTTP method.' },
  { status: 413, code: 'payload_too_large', message: 'The request body is over the limit of this route (1 MiB; 64 MiB for scanner callbacks and webhooks).' },
  { status: 502, code: 'service_unavailable', message: 'The service behind this route is not reachable.' },
  { status: 503, code: 'service_unavailable', message: 'The service behind this route is not available.' },
  { status: 504, code: 'upstream_timeout', message: 'The service behind this route did not answer in time.' },
];

const REQUEST_ID_VAR = '$palisade_request_id';
/** Internal URIs of the early refusals: outside /api/v2, and `internal`, so no client reaches them. */
const EARLY_ERROR_PREFIX = '/_palisade/errors/';

/** nginx single-quoted string holding the JSON body; the request id is interpolated by nginx. */
function errorBodyLiteral(code: TErrorCode, message: string): string {
  const entry = ERROR_CATALOGUE[code];
  const json = JSON.stringify({
    error_code: code,
    category: entry.category,
    message,
    hint: entry.hint,
    correlation_id: '__CORRELATION_ID__',
    retryable: entry.retryable,
  });
  if (/[$'\\]/.test(json)) throw new Error(`edge error text for ${code} must not contain $, ' or \\`);
  return `'${json.replace('__CORRELATION_ID__', REQUEST_ID_VAR)}'`;
}

const POLICY_DIRECTIVES: Readonly<Record<TEdgePolicy, string[]>> = {
  api: [],
  // Scanner reports and provider webhooks: up to 64 MiB, streamed to the plane as they arrive.
  upload: ['client_max_body_size 64m;', 'proxy_request_buffering off;', 'proxy_read_timeout 300s;', 'proxy_send_timeout 300s;'],
  // Server-sent events: every event flushed at once; a stream lives as long as the client keeps it.
  stream: ['proxy_buffering off;', 'proxy_cache off;', 'proxy_read_timeout 1h;', 'proxy_send_timeout 1h;'],
};

const upstreamName = (plane: TPlane) => `palisade_${plane}`;

function indent(lines: string[], depth: number): string[] {
  const pad = '    '.repeat(depth);
  return lines.map((line) => (line ? pad + line : line));
}

function overrideLocation(override: TOverride): string[] {
  const methods = override.methods.join('|');
  return [
    `# ${override.operationIds.join(', ')}: ${override.methods.join(', ')} served by the ${override.plane} plane (route table)`,
    `location ~ "${override.regex}" {`,
    ...indent(POLICY_DIRECTIVES[POLICY_FOR_PLANE[override.plane]], 1),
    `    set $palisade_upstream $palisade_method_upstream;`,
    `    if ($request_method ~ "^(${methods})$") {`,
    `        set $palisade_upstream ${upstreamName(override.plane)};`,
    `    }`,
    `    if ($palisade_upstream = "") {`,
    `        return 405;`,
    `    }`,
    `    proxy_pass http://$palisade_upstream;`,
    `}`,
  ];
}

function zoneLocations(overrides: readonly TOverride[]): string[] {
  const out: string[] = [];
  for (const zone of ZONES) {
    const nested = overrides.filter((o) => o.zone === zone).flatMap((o) => [...overrideLocation(o), '']);
    const body = [...POLICY_DIRECTIVES[zone.policy], ...(nested.length ? ['', ...nested] : [])];
    if (zone.plane) {
      body.push(`proxy_pass http://${upstreamName(zone.plane)};`);
    } else {
      body.push('if ($palisade_method_upstream = "") {', '    return 405;', '}', 'proxy_pass http://$palisade_method_upstream;');
    }
    out.push(`location ^~ ${zone.prefix} {`, ...indent(body, 1), '}', '');
  }
  return out;
}

/** The `http`-context include for one target. Throws EdgeRoutingError when a row cannot be routed. */
export function renderEdgeConfig(routes: readonly TRouteContract[], target: TEdgeTarget): string {
  const overrides = planEdgeRoutes(routes);
  const methodMap = Object.entries(METHOD_PLANES).map(([method, plane]) => `    ${method} ${upstreamName(plane)};`);
  const errorPages = [
    ...EDGE_ERRORS.flatMap(({ status, answer, early, code, message }) =>
      early
        ? [
            // Without `=answer` nginx would send its own status (400 for a 494) whatever the page returns.
            `error_page ${status}${answer ? ` =${answer}` : ''} ${EARLY_ERROR_PREFIX}${status};`,
            `location = ${EARLY_ERROR_PREFIX}${status} {`,
            '    internal;',
            `    return ${answer ?? status} ${errorBodyLiteral(code, message)};`,
            '}',
          ]
        : [
            `error_page ${status} @palisade_${status};`,
            `location @palisade_${status} {`,
            `    return ${answer ?? status} ${errorBodyLiteral(code, message)};`,
            '}',
          ],
    ),
    // nginx's own crash (never a plane's 500, which passes through): the spec's 500 body.
    `error_page 500 ${EARLY_ERROR_PREFIX}500;`,
    `location = ${EARLY_ERROR_PREFIX}500 {`,
    '    internal;',
    `    return 500 '{"correlation_id":"${REQUEST_ID_VAR}"}';`,
    '}',
  ];
  const server = [
    `listen ${target.listen};`,
    'server_name _;',
    // One JSON line per request with the request id, in the container's stdout (docker logs).
    ...(target.accessLog ? [`access_log ${target.accessLog} palisade;`] : []),
    ...(target.realIpInclude ? ['# A trusted proxy in front of the edge (infra/k8s/edge.yaml mounts one for the Ingress).', `include ${target.realIpInclude};`] : []),
    'server_tokens off;',
    'default_type application/json;',
    'client_max_body_size 1m;',
    '',
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
    'proxy_set_header Host $http_host;',
    `proxy_set_header X-Request-ID ${REQUEST_ID_VAR};`,
    // The edge is the outermost hop the planes trust (TRUST_PROXY): it states the address it saw
    // and drops any chain the client sent, so no client can choose its own address (the login
    // throttle counts per address). A proxy in front of the edge is trusted only through the
    // real-IP include of that target, which rewrites $remote_addr first.
    'proxy_set_header X-Forwarded-For $remote_addr;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_set_header X-Forwarded-Host $http_host;',
    'proxy_connect_timeout 5s;',
    'proxy_read_timeout 60s;',
    'proxy_send_timeout 60s;',
    // Locations below set no add_header of their own, so this one reaches every response.
    `add_header X-Request-ID ${REQUEST_ID_VAR} always;`,
    // The planes echo the request id as X-Correlation-ID; the edge sets it itself (hiding the
    // plane's copy, which holds the same id) so that its own refusals (404, 413, 502) carry it too.
    'proxy_hide_header X-Correlation-ID;',
    `add_header X-Correlation-ID ${REQUEST_ID_VAR} always;`,
    '',
    '# Refusals made by the edge itself carry the API error body.',
    ...errorPages,
    '',
    '# The edge is alive (the planes have their own /healthz and /readyz on their own ports).',
    'location = /healthz {',
    `    return 200 '{"status":"ok"}';`,
    '}',
    '',
    ...zoneLocations(overrides),
    'location / {',
    '    return 404;',
    '}',
  ];
  const lines = [
    '# GENERATED by infra/nginx/generate.ts from the route table (packages/contracts/src/route-table.ts).',
    '# Do not edit: run `npm run edge:generate`; CI runs `npm run edge:check` and fails on drift.',
    '# An http-context include: upstreams per plane, request-id and method maps, and the one server.',
    '',
    ...PLANES.flatMap((plane) => [`upstream ${upstreamName(plane)} {`, `    server ${target.upstreams[plane]};`, '    keepalive 16;', '}']),
    '',
    '# A client may bring its own X-Request-ID if it is well formed; otherwise nginx makes one.',
    `map $http_x_request_id ${REQUEST_ID_VAR} {`,
    '    "~^[A-Za-z0-9._:-]{8,128}$" $http_x_request_id;',
    '    default $request_id;',
    '}',
    '',
    '# Outside the reserved prefixes, reads go to the read plane and mutations to the write plane.',
    'map $request_method $palisade_method_upstream {',
    ...methodMap,
    '    default "";',
    '}',
    '',
    "log_format palisade escape=json '{\"time\":\"$time_iso8601\",\"request_id\":\"$palisade_request_id\",'",
    "    '\"method\":\"$request_method\",\"uri\":\"$uri\",\"status\":$status,\"bytes_sent\":$body_bytes_sent,'",
    "    '\"request_time\":$request_time,\"upstream\":\"$upstream_addr\",\"upstream_status\":\"$upstream_status\",'",
    "    '\"upstream_time\":\"$upstream_response_time\",\"remote_addr\":\"$remote_addr\"}';",
    '',
    'server {',
    ...indent(server, 1),
    '}',
  ];
  return `${lines.map((line) => line.trimEnd()).join('\n').replace(/\n{3,}/g, '\n\n')}\n`;
}

export interface TStandaloneOptions {
  /** Directory holding nginx.conf, palisade.conf, pid, logs and temp files (absolute). */
  prefix: string;
  workerProcesses?: number | 'auto';
  /** Worker user when the master runs as root (nginx's default, nobody:nobody, has no group on Debian). */
  user?: string;
}

/** A complete nginx.conf for `nginx -p <prefix> -c <prefix>/nginx.conf -g 'daemon off;'`. */
export function renderStandaloneConfig(options: TStandaloneOptions): string {
  const p = (name: string) => `${options.prefix.replace(/\/$/, '')}/${name}`;
  return [
    '# GENERATED by infra/nginx/generate.ts --standalone; rewritten on every start.',
    ...(options.user ? [`user ${options.user};`] : []),
    `worker_processes ${options.workerProcesses ?? 1};`,
    `pid ${p('nginx.pid')};`,
    `error_log ${p('error.log')} warn;`,
    '',
    'events {',
    '    worker_connections 1024;',
    '}',
    '',
    'http {',
    `    client_body_temp_path ${p('tmp/client_body')};`,
    `    proxy_temp_path ${p('tmp/proxy')};`,
    `    fastcgi_temp_path ${p('tmp/fastcgi')};`,
    `    uwsgi_temp_path ${p('tmp/uwsgi')};`,
    `    scgi_temp_path ${p('tmp/scgi')};`,
    '    sendfile on;',
    '    keepalive_timeout 65s;',
    `    include ${p('palisade.conf')};`,
    `    access_log ${p('access.log')} palisade;`,
    '}',
    '',
  ].join('\n');
}

export const STANDALONE_TEMP_DIRS = ['tmp/client_body', 'tmp/proxy', 'tmp/fastcgi', 'tmp/uwsgi', 'tmp/scgi'];
