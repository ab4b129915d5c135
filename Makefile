# Nameport: `make run` starts the product, `make test` runs every test.
GO ?= go
NPM ?= npm
NODE_DEPS := web/node_modules/.package-lock.json

.PHONY: run build web test test-go test-web test-e2e bench bench-dns bench-web load clean

run: build
	./bin/nameport serve --demo

build: web
	$(GO) build -o bin/nameport ./cmd/nameport
	$(GO) build -o bin/nameportctl ./cmd/nameportctl

# The web build generates the API types (web/src/lib/api-types.gen.ts) from
# `nameport openapi`, then runs vite build and tsc --noEmit: a server change
# that breaks the web app fails here.
web: $(NODE_DEPS)
	cd web && GO=$(GO) $(NPM) run build

$(NODE_DEPS): web/package.json web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund

test: test-go test-web test-e2e

# Go tests run on SQLite, and on PostgreSQL too when
# NAMEPORT_TEST_DATABASE_URL names a server (each test gets its own database).
# The SDK is its own module (standard library only), tested on its own and,
# against the real server, from internal/server and cli.
test-go:
	@if [ -n "$$NAMEPORT_TEST_DATABASE_URL" ]; then echo "Go tests: SQLite and PostgreSQL"; \
	else echo "Go tests: SQLite only (set NAMEPORT_TEST_DATABASE_URL for PostgreSQL too)"; fi
	$(GO) vet ./...
	@# stripe-mock (Stripe's API fake) and pebble (Let's Encrypt's test CA), tool dependencies, are built once here, not inside a test's timeout.
	$(GO) tool -n stripe-mock >/dev/null
	$(GO) tool -n pebble >/dev/null
	cd sdk && $(GO) vet ./... && $(GO) test -count=1 ./...
	$(GO) test -count=1 -timeout 15m ./...

# `web` type-checks the app against freshly generated API types first; the
# OpenAPI document they came from (web/openapi.gen.json) is then linted with
# Redocly's recommended rules (web/redocly.yaml), offline.
test-web: web
	cd web && $(NPM) run lint:openapi
	cd web && $(NPM) test
	# The landing route's JavaScript budget (bench-web builds its own copy).
	cd web && node scripts/bench-web.mjs --tsv > /dev/null

# End-to-end: headless Chromium against a real `nameport serve` on a
# temporary SQLite database.
test-e2e: build
	cd web && NAMEPORT_BIN=$(CURDIR)/bin/nameport $(NPM) run e2e

# Every speed figure beside its peer in one table, written to
# docs/BENCHMARKS.md: DNS vs NSD, API vs bare net/http, registrations vs
# pgbench, startup and memory with 100,000 domains vs NSD, changes (change
# to answer, memory after 1,000 changes, DNS queries while changes are
# written, vs NSD), email forwarding vs a bare go-smtp server, domain
# forwarding's redirects over HTTP and HTTPS vs a bare net/http handler,
# route sizes. PARTS="dns api reg startup churn mail forward web" picks
# some. Needs dnsperf, nsd, pgbench, curl and PostgreSQL (PG_URL).
# See scripts/bench.sh.
bench: build
	./scripts/bench.sh

# DNS speed: nameport against NSD under dnsperf, same zone and queries
# (needs dnsperf and nsd: apt-get install dnsperf nsd). DURATION=3 for a quick run.
bench-dns: build
	./scripts/bench-dns.sh

# Web speed: each route's initial JavaScript (raw and gzipped); fails when
# the landing route is over its 150 KB gzipped budget.
bench-web: $(NODE_DEPS)
	cd web && node scripts/bench-web.mjs

# Invariants under load and crashes (cmd/nameport-load): nameport serve on a
# fresh PostgreSQL database (on NAMEPORT_TEST_DATABASE_URL, else a local
# server), concurrent users and registrars, SIGKILL and restart LOAD_KILLS
# times, then ledger, charges, jobs, mail and DNS are checked. Exit 1 lists
# the violations. A 16-second form runs in the Go tests.
LOAD_DURATION ?= 5m
LOAD_CLIENTS ?= 50
LOAD_KILLS ?= 3
load:
	$(GO) run ./cmd/nameport-load --duration $(LOAD_DURATION) --clients $(LOAD_CLIENTS) --kills $(LOAD_KILLS)

clean:
	rm -rf bin web/dist/assets web/dist/index.html web/dist/docs
