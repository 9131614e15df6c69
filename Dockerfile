# Build: docker build -t dynaloom .
# Run:   docker run -p 8080:8080 -v dynaloom-data:/data dynaloom
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
# The Graphviz bindings, patched to load on first use (third_party/go-graphviz/README.md).
COPY third_party ./third_party
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -ldflags "-s -w" -o /out/dynaloom ./cmd/web

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --create-home --home-dir /data dynaloom
COPY --from=build /out/dynaloom /usr/local/bin/dynaloom
USER dynaloom
WORKDIR /data
ENV DYNALOOM_ADDR=0.0.0.0:8080 \
    DYNALOOM_DB=/data/dynaloom.db
EXPOSE 8080
VOLUME ["/data"]
ENTRYPOINT ["dynaloom"]
CMD ["serve"]
