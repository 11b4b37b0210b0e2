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

.PHONY: run test build deps test-deps module-graph swift-build swift-test bench-test e2e bench bench-report bench-push fuzz sanitize sanitize-address sanitize-thread clean

deps:
	@scripts/install-deps.sh $(BUILD_PACKAGES)

build: deps
	$(SWIFT) build -c release --product assentd
	$(SWIFT) build -c release --product assent

run: build
	.build/release/assentd --listen $(LISTEN) --database $(DATABASE) --dev --allow-private-urls

test-deps:
	@scripts/install-deps.sh $(TEST_PACKAGES)
	@if [ ! -x $(VENV)/bin/pytest ] || ! $(VENV)/bin/python -c 'import authsignal, h2, matplotlib, schemathesis, openapi_spec_validator, xdist' 2>/dev/null; then \
		python3 -m venv $(VENV) && $(VENV)/bin/pip install -q -r Tests/e2e/requirements.txt; fi
	@for version in $(OLDER_AUTHSIGNAL); do venv=.build/venv-authsignal-$$version; \
		if ! $$venv/bin/python -c "from authsignal.version import VERSION; assert VERSION == '$$version'" 2>/dev/null; then \
			python3 -m venv $$venv && $$venv/bin/pip install -q authsignal==$$version requests==2.32.3; fi; done

# Each stage in turn, with its wall time; the last lines sum them up. The debug builds all pass SWIFT_TEST_FLAGS, so
# one build serves every stage (another flag set would rebuild everything) and a compiler warning fails the run.
# Tests write their temporary files under TEST_TMP (TMPDIR), which must be empty again at the end: a test that leaves
# files behind fails the run. Every SwiftPM command (build or test, even one with nothing to do) leaves five empty
# TemporaryDirectory.* folders and four lock files in $TMPDIR, so SwiftPM runs with TMPDIR=BUILD_TMP, emptied after
# each build, and the Swift tests run as their test bundle itself (what `swift test --skip-build` starts) under TEST_TMP.
TEST_STAGES := test-deps module-graph swift-build swift-test bench-test e2e
SWIFT_TEST_FLAGS := -Xswiftc -warnings-as-errors
TEST_TMP := $(CURDIR)/.build/test-tmp
BUILD_TMP := $(CURDIR)/.build/build-tmp
SWIFT_BUILD = mkdir -p $(BUILD_TMP) && TMPDIR=$(BUILD_TMP) $(SWIFT) build
test:
	@rm -rf $(TEST_TMP) && mkdir -p $(TEST_TMP) && chmod 755 $(TEST_TMP)
	@summary=""; started=$$(date +%s); for stage in $(TEST_STAGES); do stage_started=$$(date +%s); \
		TMPDIR=$(TEST_TMP) $(MAKE) --no-print-directory $$stage || { echo "make test: stage $$stage failed"; exit 1; }; \
		summary="$$summary$$(printf '%-13s %5d s' $$stage $$(( $$(date +%s) - stage_started )))\n"; done; \
	printf "== make test: wall time per stage\n$$summary%-13s %5d s\n" total $$(( $$(date +%s) - started ))
	@left=$$(find $(TEST_TMP) -mindepth 1 -maxdepth 1 | head -20); if [ -n "$$left" ]; then \
		echo "make test: the tests left files behind in $(TEST_TMP):"; echo "$$left"; exit 1; fi; \
	echo "== make test: no test left a file in $(TEST_TMP)"

# The SDK, the testing library and the CLI never reach the HTTP server, epoll, a database driver or libcurl.
module-graph:
	mkdir -p $(BUILD_TMP) && TMPDIR=$(BUILD_TMP) python3 scripts/check-module-graph.py
	@rm -rf $(BUILD_TMP)

# The HTTP server's and the periodic loop's suites measure time against real sockets and clocks, so they run on their
# own first: in one process with the store suites, whose blocking database calls can hold both of a 2-core machine's
# cooperative threads for seconds, they time out.
TIMED_SUITES := AssentHTTPTests\.|PeriodicLoopTests
swift-build:
	$(SWIFT_BUILD) --build-tests $(SWIFT_TEST_FLAGS)
	@rm -rf $(BUILD_TMP)

SWIFT_TESTS := .build/debug/AssentPackageTests.xctest --testing-library swift-testing
swift-test: swift-build
	$(SWIFT_TESTS) --filter '$(TIMED_SUITES)'
	$(SWIFT_TESTS) --skip '$(TIMED_SUITES)'

# The load generator's own tests: Benchmarks/ is a package of its own that depends on this one.
bench-test:
	$(SWIFT_BUILD) --build-tests --package-path Benchmarks $(SWIFT_TEST_FLAGS)
	@rm -rf $(BUILD_TMP)
	Benchmarks/.build/debug/AssentBenchmarksPackageTests.xctest --testing-library swift-testing

# E2E_WORKERS pytest-xdist workers: a test mostly waits on a server it started, so more workers than cores.
E2E_WORKERS ?= 6
e2e:
	$(SWIFT_BUILD) --product assentd $(SWIFT_TEST_FLAGS)
	$(SWIFT_BUILD) --product assent $(SWIFT_TEST_FLAGS)
	$(SWIFT_BUILD) --product assent-openapi $(SWIFT_TEST_FLAGS)
	@rm -rf $(BUILD_TMP)
	ASSENT_BIN=.build/debug $(VENV)/bin/pytest -q -n $(E2E_WORKERS) --durations=15 --basetemp $(CURDIR)/.build/pytest-tmp Tests/e2e
	$(VENV)/bin/pytest -q --basetemp $(CURDIR)/.build/pytest-tmp Tests/tools

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
# (.build/asan, .build/tsan), one test module at a time: the whole suite at once under a sanitizer's slowdown starves
# this 2-core machine's cooperative pool, and timing-bounded tests then fail for want of CPU, not for a fault. The
# suppressions cover toolchain code only (Tests/Sanitizers/). AddressSanitizer: leak reports are off, since the Swift
# runtime's once-allocated globals are all LeakSanitizer finds. ThreadSanitizer: built with -DTSAN_LOCKS, so AssentLock
# (Sources/AssentSync) locks a pthread mutex TSan can see instead of Synchronization.Mutex, whose raw futex it cannot
# see on Linux; any report fails the run (TSan's exit code 66). SANITIZE_MODULES picks the modules of both runs, to
# bound the time (e.g. SANITIZE_MODULES=AssentStorageTests).
SANITIZE_MODULES ?= AssentSyncTests AssentCryptoTests AssentWireTests AssentLogTests AssentHTTPTests AssentQRRenderTests \
	AssentServerCoreTests AssentStorageTests AssentHTTPClientTests AssentServerTests AssentTests AssentTestingTests AssentCLITests \
	AssentFuzzTests AssentAttestationTests
TSAN_MODULES ?= $(SANITIZE_MODULES)
sanitize: sanitize-address sanitize-thread

sanitize-address: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	@failed=""; for module in $(SANITIZE_MODULES); do echo "== AddressSanitizer: $$module"; \
		ASAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/asan-suppressions.txt:detect_leaks=0 \
			$(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan --filter "^$$module\\." \
			|| failed="$$failed $$module"; \
	done; if [ -n "$$failed" ]; then echo "AddressSanitizer: failures in$$failed"; exit 1; fi

# Reports go to .build/tsan/reports/ (log_path), from the test process and from every assentd and assent process the
# tests start (they pass TSAN_OPTIONS on), and any report fails the run.
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
