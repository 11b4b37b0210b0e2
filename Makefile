# Assent: `make run` starts assentd --dev (a development tenant in an empty database; tenant URLs may reach localhost) on 127.0.0.1:8420; `make test` runs every test. Both install what is missing.
SHELL := /bin/bash
SWIFT ?= swift
BUILD_PACKAGES := pkg-config libgnutls28-dev libssl-dev libsqlite3-dev libpq-dev libmicrohttpd-dev libqrencode-dev zlib1g-dev libcurl4-openssl-dev
TEST_PACKAGES := $(BUILD_PACKAGES) systemd postgresql-15 python3 python3-venv openssl curl zbar-tools librsvg2-bin qrencode chromium chromium-driver prometheus
BENCH_PACKAGES := $(BUILD_PACKAGES) postgresql-15 python3
LISTEN ?= 127.0.0.1:8420
DATABASE ?= .assent/assent.sqlite
VENV := .build/venv
# Older official Python server SDKs that pinned projects still run (Tests/e2e/test_older_sdks.py), each in a virtualenv
# of its own (.build/venv-authsignal-VERSION) since they cannot share one with 4.x.
OLDER_AUTHSIGNAL := 3.0.0 2.0.7

.PHONY: run test build deps test-deps module-graph swift-test bench-test e2e bench bench-report bench-push fuzz sanitize sanitize-address sanitize-thread clean

deps:
	@scripts/install-deps.sh $(BUILD_PACKAGES)

build: deps
	$(SWIFT) build -c release --product assentd
	$(SWIFT) build -c release --product assent

run: build
	.build/release/assentd --listen $(LISTEN) --database $(DATABASE) --dev --allow-private-urls

test-deps:
	@scripts/install-deps.sh $(TEST_PACKAGES)
	@if [ ! -x $(VENV)/bin/pytest ] || ! $(VENV)/bin/python -c 'import authsignal, h2, matplotlib, schemathesis, openapi_spec_validator' 2>/dev/null; then \
		python3 -m venv $(VENV) && $(VENV)/bin/pip install -q -r Tests/e2e/requirements.txt; fi
	@for version in $(OLDER_AUTHSIGNAL); do venv=.build/venv-authsignal-$$version; \
		if ! $$venv/bin/python -c "from authsignal.version import VERSION; assert VERSION == '$$version'" 2>/dev/null; then \
			python3 -m venv $$venv && $$venv/bin/pip install -q authsignal==$$version requests==2.32.3; fi; done

test: test-deps module-graph swift-test bench-test e2e

# The SDK, the testing library and the CLI never reach the HTTP server, epoll, a database driver or libcurl.
module-graph:
	python3 scripts/check-module-graph.py

# The HTTP server's and the periodic loop's suites measure time against real sockets and clocks, so they run on their
# own first: in one process with the store suites, whose blocking database calls can hold both of a 2-core machine's
# cooperative threads for seconds, they time out.
TIMED_SUITES := AssentHTTPTests\.|PeriodicLoopTests
swift-test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter '$(TIMED_SUITES)'
	$(SWIFT) test --skip-build --skip '$(TIMED_SUITES)'

# The load generator's own tests: Benchmarks/ is a package of its own that depends on this one.
bench-test:
	$(SWIFT) build --build-tests --package-path Benchmarks
	$(SWIFT) test --skip-build --package-path Benchmarks

e2e:
	$(SWIFT) build --product assentd
	$(SWIFT) build --product assent
	ASSENT_BIN=.build/debug $(VENV)/bin/pytest -q Tests/e2e
	$(VENV)/bin/pytest -q Tests/tools

bench: deps
	@scripts/install-deps.sh $(BENCH_PACKAGES)
	scripts/bench.sh

# SVG charts and Markdown tables (docs/benchmarks/) from the runs that bench.sh wrote with BENCH_RESULTS=Benchmarks/results.
bench-report: test-deps
	$(VENV)/bin/python scripts/bench-report.py --results Benchmarks/results --out docs/benchmarks

# Notifications per second from assentd to a fake APNs (nghttpd and the h2 fake) over one HTTP/2 connection.
bench-push: test-deps
	@scripts/install-deps.sh nghttp2-server
	$(SWIFT) build -c release --product assentd
	$(SWIFT) build -c release --product assent
	$(VENV)/bin/python Benchmarks/push/push_delivery_bench.py --bin .build/release

# libFuzzer over the parsers a stranger feeds (AssentFuzz), FUZZ_SECONDS each (default 60), from the seed corpus in
# Tests/Fuzz/Corpus; fails on a crash or on a target that executed nothing. A build of its own (instrumented, ASan).
# `make test` replays the seed corpus in the ordinary build (CorpusReplayTests).
FUZZ_SECONDS ?= 60
fuzz: deps
	$(SWIFT) build --product AssentFuzz --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh .build/fuzz/debug/AssentFuzz

# The Swift suites under AddressSanitizer and ThreadSanitizer, run by hand (not in CI), each in a build of its own
# (.build/asan, .build/tsan). The suppressions cover toolchain code only (Tests/Sanitizers/). AddressSanitizer: leak
# reports are off, since the Swift runtime's once-allocated globals are all LeakSanitizer finds. ThreadSanitizer: built
# with -DTSAN_LOCKS, so AssentLock (Sources/AssentSync) locks a pthread mutex TSan can see instead of
# Synchronization.Mutex, whose raw futex it cannot see on Linux; any report fails the run (TSan's exit code 66).
# SANITIZE_FILTER passes --filter to the AddressSanitizer run and TSAN_MODULES picks the ThreadSanitizer run's test
# modules, to bound the time (e.g. SANITIZE_FILTER=AssentStorageTests TSAN_MODULES=AssentStorageTests).
SANITIZE_FILTER ?=
SANITIZE_TEST_FLAGS = $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)')
sanitize: sanitize-address sanitize-thread

sanitize-address: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	ASAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/asan-suppressions.txt:detect_leaks=0 \
		$(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan $(SANITIZE_TEST_FLAGS)

# One test module at a time: the whole suite at once under TSan's slowdown starves this 2-core machine's cooperative
# pool, and timing-bounded tests (idle timeouts, WebSocket pings) then fail for want of CPU, not for a race. Reports go
# to .build/tsan/reports/ (log_path), from the test process and from every assentd and assent process the tests start
# (they pass TSAN_OPTIONS on), and any report fails the run.
TSAN_MODULES ?= AssentSyncTests AssentCryptoTests AssentWireTests AssentLogTests AssentHTTPTests AssentQRRenderTests AssentServerCoreTests \
	AssentStorageTests AssentHTTPClientTests AssentServerTests AssentTests AssentTestingTests AssentCLITests AssentFuzzTests
sanitize-thread: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan -Xswiftc -DTSAN_LOCKS
	@rm -rf .build/tsan/reports && mkdir -p .build/tsan/reports; failed=""; for module in $(TSAN_MODULES); do \
		echo "== ThreadSanitizer: $$module"; \
		TSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/tsan-suppressions.txt:halt_on_error=0:second_deadlock_stack=1:log_path=$(CURDIR)/.build/tsan/reports/tsan \
			$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan -Xswiftc -DTSAN_LOCKS \
			--filter "^$$module\\." || failed="$$failed $$module"; \
	done; \
	for report in .build/tsan/reports/*; do [ -e "$$report" ] || continue; \
		echo "== $$report"; grep -h "SUMMARY" "$$report"; failed="$$failed (report $$report)"; done; \
	if [ -n "$$failed" ]; then echo "ThreadSanitizer: failures or reports in$$failed"; exit 1; fi

clean:
	rm -rf .build Benchmarks/.build
