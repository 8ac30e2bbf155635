# The native server over Streamable HTTP, in a small image without a shell.
#
#   docker build -t entrez-mcp .
#   docker run --rm -p 8787:8787 -v entrez-data:/data entrez-mcp     # http://127.0.0.1:8787/mcp
#
# Settings come from the environment (docs/src/configuration.md), e.g. -e NCBI_API_KEY=...
# -e NCBI_EMAIL=.... Datasets and the cache of upstream answers live in the /data volume.
# The server listens on 0.0.0.0 inside the container, so it does not take its callers for the
# machine's own user: set MCP_AUTH_MODE before publishing the port beyond your machine
# (docs/src/authorization.md), or ENTREZ_ANONYMOUS_USE_SERVER_KEY=true for a container only
# you reach. tests/docker/check.sh builds and runs it where a container runtime exists.

# ---- build: the release binary (SQLite and mimalloc are compiled in; TLS roots are built in)
FROM rust:1.91-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin entrez-mcp \
 && mkdir -p /out/data \
 && cp target/release/entrez-mcp /out/entrez-mcp

# ---- run: glibc and libgcc only, as the distroless image's non-root user (65532)
FROM gcr.io/distroless/cc-debian12:nonroot
LABEL io.modelcontextprotocol.server.name="io.github.entrez-mcp/entrez-mcp" \
      org.opencontainers.image.title="entrez-mcp" \
      org.opencontainers.image.description="MCP server for NCBI Entrez: E-utilities, SQL staging, PubChem and PMC" \
      org.opencontainers.image.licenses="MIT"
COPY --from=build /out/entrez-mcp /usr/local/bin/entrez-mcp
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
ENV ENTREZ_DATA_DIR=/data \
    ALLOWED_HOSTS=localhost,127.0.0.1,[::1]
VOLUME ["/data"]
EXPOSE 8787
ENTRYPOINT ["/usr/local/bin/entrez-mcp"]
CMD ["serve", "--listen", "0.0.0.0:8787"]
