# syntax=docker/dockerfile:1
# One image per deployable, all from one build:
#   docker build --target read-api -t palisade/read-api .     (read-api write-api callback-api sse
#   admin-api worker cli migrate edge)
# The planes listen on 0.0.0.0:<PORT> inside the container and run as the unprivileged `node` user.

ARG NODE_IMAGE=node:20.19-bookworm-slim
ARG NGINX_IMAGE=nginx:stable

# ── manifests: only the package.json files, so `npm ci` is cached until a manifest changes ──
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json -delete && find . -type d -empty -delete

# ── deps: every dependency (dev included: the build needs TypeScript and Prisma's CLI) ──
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=manifests /src/ ./
# npm 11 lockfiles lack other platforms' optional binaries, which some npm versions' `npm ci`
# rejects (npm/cli#8805); `npm install` then installs the same locked versions.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund

# ── build: Prisma client, every workspace compiled to dist/, the generated edge config checked ──
FROM deps AS build
COPY . .
RUN npm run -w @palisade/db generate \
 && npm run build \
 && npx tsx --conditions=palisade-source infra/nginx/generate.ts --check \
 && npm prune --omit=dev --no-audit --no-fund

# ── runtime: production dependencies and compiled workspaces, shared by every app image ──
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 LOG_LEVEL=info OPENAPI_ENABLED=false
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/apps ./apps
USER node
STOPSIGNAL SIGTERM

FROM runtime AS read-api
ENV PORT=4101
EXPOSE 4101
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "apps/read-api/dist/main.js"]

FROM runtime AS write-api
ENV PORT=4102
EXPOSE 4102
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "apps/write-api/dist/main.js"]

FROM runtime AS callback-api
ENV PORT=4103
EXPOSE 4103
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "apps/callback-api/dist/main.js"]

FROM runtime AS sse
ENV PORT=4104
EXPOSE 4104
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "apps/sse/dist/main.js"]

FROM runtime AS admin-api
ENV PORT=4105
EXPOSE 4105
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "apps/admin-api/dist/main.js"]

FROM runtime AS worker
ENV PORT=4106 WORKER_QUEUES=all
EXPOSE 4106
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "apps/worker/dist/main.js"]

# One-shot: apply migrations (Prisma's JS schema engine, no binary download), then make sure the
# demo organization exists; prints {organization_id, email, password?} (password only when new).
FROM runtime AS migrate
CMD ["sh", "-c", "npm run --silent -w @palisade/db migrate:deploy && node packages/db/dist/seed.js"]

FROM runtime AS cli
ENTRYPOINT ["node", "apps/cli/dist/main.js"]
CMD ["--help"]

# The edge: nginx with the config generated from the route table for service-name upstreams
# (read-api:4101 …), which compose and Kubernetes Services of the same names both resolve.
FROM ${NGINX_IMAGE} AS edge
RUN rm -f /etc/nginx/conf.d/default.conf
COPY --from=build /app/infra/nginx/palisade.compose.conf /etc/nginx/conf.d/palisade.conf
EXPOSE 8080
