# Build: the same release build command scripts/test runs (CI exercises it there).
FROM swift:6.2-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libwebsockets-dev libuv1-dev libssl-dev libsqlite3-dev libpq-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
# The built-in kanban and outline boards, compiled in from their one copies (Sources/LiftboardServer/Resources links to them).
COPY Examples/boards/kanban.json ./Examples/boards/kanban.json
COPY Examples/boards/outline.json ./Examples/boards/outline.json
COPY Public ./Public
RUN swift build -c release --static-swift-stdlib --product liftboard \
    && cp "$(swift build -c release --show-bin-path)/liftboard" /usr/local/bin/liftboard

FROM debian:bookworm-slim
# libwebsockets-evlib-uv (with libuv1): the epoll service loop; without it the server falls back to poll.
RUN apt-get update && apt-get install -y --no-install-recommends libwebsockets17 libwebsockets-evlib-uv libuv1 libssl3 libsqlite3-0 libpq5 curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /var/lib/liftboard liftboard
COPY --from=build /usr/local/bin/liftboard /usr/local/bin/liftboard
COPY Public /usr/share/liftboard/Public
USER liftboard
WORKDIR /var/lib/liftboard
VOLUME /var/lib/liftboard/data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["liftboard", "serve", "--host", "0.0.0.0", "--port", "8080", "--public", "/usr/share/liftboard/Public", "--data", "/var/lib/liftboard/data"]
