# One image for every role: `docker run IMAGE` runs everything in one process (embedded PostgreSQL),
# `docker run IMAGE --role api` or `--role worker` one part against DATABASE_URL (see README "Running at scale").

# Build: every dependency, then the web app and the server (bundled JavaScript with source maps), then only the
# dependencies that run: no compiler, bundler or test tool goes into the image.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm install --no-audit --no-fund
COPY . .
# The web's i18next names TypeScript as an optional peer, so prune keeps it; nothing loads it at run time.
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/typescript

# Run: Node 22 on Debian slim with the slide readers (vips with OpenSlide), as an unprivileged user.
FROM node:22-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends libvips-tools openslide-tools libjemalloc2 ca-certificates \
  && rm -rf /var/lib/apt/lists/* \
  && ln -s /usr/lib/*/libjemalloc.so.2 /usr/local/lib/libjemalloc.so.2
WORKDIR /app
COPY --from=build --chown=root:root /app /app
RUN mkdir -p /data && chown node:node /data
USER node
# jemalloc as npm start runs it (scripts/start.sh says why): glibc's malloc fragments under libvips' threads.
ENV LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
    NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000
VOLUME ["/data"]
EXPOSE 3000
# Liveness of an api (or all-in-one) process; orchestrators use /api/v1/health/ready for traffic.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.OPS_PORT||process.env.PORT||3000)+'/api/v1/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "--enable-source-maps", "apps/server/dist/main.js"]
CMD []
