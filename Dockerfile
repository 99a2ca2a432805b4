# Emporium server image. Build: docker build -t emporium .   Run: docker run -p 8080:8080 -v emporium-data:/data emporium
FROM debian:12-slim AS build
WORKDIR /src
COPY scripts/setup.sh scripts/setup.sh
RUN scripts/setup.sh
COPY . .
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DEMPORIUM_BUILD_TESTS=OFF -DEMPORIUM_BUILD_BENCH=OFF \
 && cmake --build build --target emporium-server emporium-verify emporium-analyse emporium-admin

FROM debian:12-slim
RUN apt-get update && apt-get install -y --no-install-recommends libspdlog1.10 libsqlite3-0 libpq5 libssl3 libjemalloc2 libfmt9 zlib1g libunistring2 libsodium23 libcurl4 ca-certificates \
 && rm -rf /var/lib/apt/lists/* && useradd --system --home /data emporium && mkdir -p /data && chown emporium /data
COPY --from=build /src/build/server/emporium-server /usr/local/bin/emporium-server
# The offline check of a finished game's record: docker run --rm -i --entrypoint emporium-verify emporium --stdin < record.json
COPY --from=build /src/build/engine/emporium-verify /usr/local/bin/emporium-verify
# A finished game's analysis offline, as the server computes it: ... --entrypoint emporium-analyse emporium --stdin < record.json
COPY --from=build /src/build/engine/emporium-analyse /usr/local/bin/emporium-analyse
# Moderators are named on the server's machine: docker exec <container> emporium-admin grant-moderator NAME
COPY --from=build /src/build/server/emporium-admin /usr/local/bin/emporium-admin
COPY web-client /srv/web-client
COPY engine/games/merkator/merkator-data.json /srv/merkator-data.json
USER emporium
EXPOSE 8080
ENV EMPORIUM_BIND=0.0.0.0 EMPORIUM_PORT=8080 EMPORIUM_DATA_DIR=/data EMPORIUM_WEB_ROOT=/srv/web-client \
    EMPORIUM_MERKATOR_DATA=/srv/merkator-data.json
HEALTHCHECK CMD ["/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q ok <&3"]
ENTRYPOINT ["/usr/local/bin/emporium-server"]
