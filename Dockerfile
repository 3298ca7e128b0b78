# TapTrace service image.
#
#   docker build -t taptrace .
#   head -c 32 /dev/urandom | base64 | tr -d '/+=' > taptrace_token   # one token a line
#   docker run -p 8080:8080 -v taptrace-data:/data \
#     -v "$PWD/taptrace_token:/run/secrets/taptrace_token:ro" taptrace
#
# The server listens on every interface of the container, so it requires a bearer token on every
# /v1 request: it reads the tokens from /run/secrets/taptrace_token (TAPTRACE_AUTH_TOKEN_FILE),
# where Docker Compose and Swarm put a secret named taptrace_token; the file must be readable by
# the container's user (uid 10001). Without that file the server does not start. Clients send
# `Authorization: Bearer <token>`; /health stays open for the HEALTHCHECK below. To serve
# without a token (only behind something that guards the port), run with
# `-e TAPTRACE_AUTH_TOKEN_FILE= -e TAPTRACE_ALLOW_UNAUTHENTICATED=1`. A shared PostgreSQL instead of
# the SQLite file on the volume: `-e TAPTRACE_DB=postgres://user:password@host/db` (libpq5 is in
# the image; several containers may share one database, docs/postgres.md). HTTPS: mount a certificate
# and key and set TAPTRACE_TLS_CERT and TAPTRACE_TLS_KEY (the HEALTHCHECK then speaks HTTPS:
# `taptrace health` reads TAPTRACE_TLS_CERT too), or put a TLS-terminating proxy in front.
#
# Build stage: the Swift 6 toolchain on Debian bookworm, with the C libraries' headers. The Swift
# standard library and Foundation are linked statically, so the runtime image needs no toolchain.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd-dev libgnutls28-dev libsqlite3-dev libzstd-dev libpq-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so that editing the sources does not re-fetch them.
COPY Package.swift ./
RUN swift package resolve
# Tests and the benchmarks come along only because the manifest declares their targets
# (SwiftPM refuses a target without its folder); the build below compiles `taptrace` alone.
# The viewer, openapi.yaml and the migrations are compiled into it by the EmbedFiles plugin.
COPY Sources ./Sources
COPY Plugins ./Plugins
COPY Tests ./Tests
COPY bench ./bench
COPY viewer ./viewer
COPY migrations ./migrations
COPY openapi.yaml ./
# The release build with the execution profile it is optimised with (decision 61).
COPY scripts/build-release ./scripts/
COPY pgo/taptrace.profdata ./pgo/
RUN scripts/build-release --static-swift-stdlib --product taptrace \
 && install -D "$(swift build -c release --show-bin-path)/taptrace" /out/taptrace

# Runtime stage: Debian slim with the shared C libraries the binary links.
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 libzstd1 libpq5 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 taptrace \
 && useradd --system --uid 10001 --gid taptrace --home-dir /data --shell /usr/sbin/nologin taptrace \
 && mkdir -p /data && chown taptrace:taptrace /data
COPY --from=build /out/taptrace /usr/local/bin/taptrace
COPY examples /usr/share/taptrace/examples

# The database lives on a volume; the server listens on all interfaces inside the container,
# with the tokens of the secret (see the top of this file).
ENV TAPTRACE_DB=/data/taptrace.sqlite \
    TAPTRACE_HOST=0.0.0.0 \
    TAPTRACE_PORT=8080 \
    TAPTRACE_AUTH_TOKEN_FILE=/run/secrets/taptrace_token
VOLUME ["/data"]
WORKDIR /data
USER taptrace
EXPOSE 8080
# `taptrace health` asks GET /health on the configured port (no curl in the image).
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 CMD ["taptrace", "health"]
# SIGTERM (docker stop) finishes the requests in flight, then exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["taptrace"]
CMD ["serve"]
