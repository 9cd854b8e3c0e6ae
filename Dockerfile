# syntax=docker/dockerfile:1
#
# One image for both Herald processes:
#   docker build -t herald .
#   docker run herald                    # herald serve        (the gateway; the default CMD)
#   docker run herald herald-delivery    # a delivery worker   (/metrics and /healthz on PORT, default 9464)
#   docker run herald herald projects create KEY
# `--target examples` adds the example consumer service and the demo script (docker-compose.yml).
# See docs/operations.md.

# The current Node.js LTS line Herald is tested on (CI runs the consumer suite and the current-SDK
# session on Node 24.21.0); pinned to the release, not the floating major.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# ---- build: every dependency, then `npm run build` (turbo runs `tsc -p tsconfig.build.json` per package)
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV TURBO_TELEMETRY_DISABLED=1
# Manifests first, so that the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json .npmrc ./
COPY packages/model/package.json packages/model/
COPY packages/store/package.json packages/store/
COPY packages/delivery/package.json packages/delivery/
COPY packages/gateway/package.json packages/gateway/
COPY packages/consumer/package.json packages/consumer/
COPY packages/testkit/package.json packages/testkit/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json turbo.json ./
COPY packages packages
RUN npm run build
# The example consumer service and the demo script, compiled against the packages' dist/.
COPY examples/consumer-service examples/consumer-service
COPY deploy/demo deploy/demo
RUN npx tsc -p examples/consumer-service/tsconfig.build.json && npx tsc -p deploy/demo/tsconfig.json

# ---- production: production dependencies only, the packages' dist/, a non-root user
FROM ${NODE_IMAGE} AS production
ENV NODE_ENV=production \
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/.npmrc ./
COPY --from=build /app/packages/model/package.json packages/model/
COPY --from=build /app/packages/store/package.json packages/store/
COPY --from=build /app/packages/delivery/package.json packages/delivery/
COPY --from=build /app/packages/gateway/package.json packages/gateway/
COPY --from=build /app/packages/consumer/package.json packages/consumer/
COPY --from=build /app/packages/testkit/package.json packages/testkit/
# Every workspace's `dependencies`, no devDependencies (npm installs all workspaces of the lockfile;
# the testkit's are among them: see docs/operations.md "Container image").
RUN npm ci --omit=dev --workspaces --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/packages/model/dist packages/model/dist
COPY --from=build /app/packages/store/dist packages/store/dist
COPY --from=build /app/packages/delivery/dist packages/delivery/dist
COPY --from=build /app/packages/gateway/dist packages/gateway/dist
COPY --from=build /app/packages/consumer/dist packages/consumer/dist
COPY deploy/docker/healthcheck.mjs deploy/docker/healthcheck.mjs
# `herald` and `herald-delivery` on the PATH; the default DATABASE_URL (pglite://./.herald/data)
# must be writable by the non-root user. A young generation of 32 MiB semi-spaces (V8's default is
# 16 MiB): every request and delivery allocates short-lived objects, and with the default the
# scavenger ran often enough to cost GET by id 25-30 % and creates ~10 % of their throughput
# (docs/benchmarks.md); it costs at most 48 MiB more RSS under load. Not in NODE_OPTIONS, so that a
# user's own NODE_OPTIONS (say, --max-old-space-size) does not drop it.
RUN printf '#!/bin/sh\nexec node --max-semi-space-size=32 /app/packages/gateway/dist/cli/main.js "$@"\n' > /usr/local/bin/herald \
 && printf '#!/bin/sh\nexec node --max-semi-space-size=32 /app/packages/delivery/dist/worker/main.js "$@"\n' > /usr/local/bin/herald-delivery \
 && chmod 0755 /usr/local/bin/herald /usr/local/bin/herald-delivery \
 && mkdir -p /app/.herald && chown node:node /app/.herald
# The node image's unprivileged user (uid 1000).
USER node

# ---- examples: the example consumer service and the demo script of docker-compose.yml (profile "demo")
FROM production AS examples
COPY --from=build /app/examples/consumer-service/package.json examples/consumer-service/package.json
COPY --from=build /app/examples/consumer-service/dist examples/consumer-service/dist
COPY --from=build /app/deploy/demo/dist deploy/demo/dist
EXPOSE 9465
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 CMD ["node", "/app/deploy/docker/healthcheck.mjs"]
CMD ["node", "examples/consumer-service/dist/main.js"]

# ---- runtime (the default target): the gateway, or a worker with `herald-delivery` as the command
FROM production AS runtime
EXPOSE 8080 9464
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "/app/deploy/docker/healthcheck.mjs"]
CMD ["herald", "serve"]
