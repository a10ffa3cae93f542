# loopguard in a container: a static binary (no cgo: bbolt and go-redis are pure Go) on a
# distroless base that has no shell and runs as a non-root user (uid 65532).
#
#   docker build -t loopguard .
#   docker run --rm -p 8787:8787 loopguard proxy --listen 0.0.0.0:8787 --upstream https://api.anthropic.com
#
# The default command is the proxy; compose.yaml runs two replicas behind one Redis.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/loopguard ./cmd/loopguard

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/loopguard /usr/local/bin/loopguard
USER nonroot:nonroot
# The embedded store (used when --store is not given) lives under $XDG_STATE_HOME.
ENV XDG_STATE_HOME=/home/nonroot/.local/state
EXPOSE 8787
ENTRYPOINT ["/usr/local/bin/loopguard"]
CMD ["proxy", "--listen", "0.0.0.0:8787", "--store", "memory", "--log-format", "json", "--upstream", "https://api.anthropic.com"]
