#!/bin/sh
# Type-checks the SDK as an Apple platform would compile it — AssentSync, AssentCrypto's CryptoKit backend, AssentWire,
# Assent with its Apple-only files, AssentTesting — on Linux, against stub modules of the Apple frameworks
# (scripts/apple-stubs/: CryptoKit, CommonCrypto, Security, LocalAuthentication, DeviceCheck, Darwin's
# timingsafe_bcmp), with the package's Swift 6 settings and -warnings-as-errors.
#
# The stubs are written from Apple's documentation pages, by hand: this catches what a reader misses (Swift 6
# concurrency and Sendable errors, typed throws, imports, wrong labels or types against the documented signatures,
# files left out of a gate), not a stub that is itself wrong. The real check is .github/workflows/apple.yml.
#
# AssentWire's RS256 cases (OpenSSL-only, `#if os(Linux)`) are switched off in a copy, since this runs on Linux.
#
# Usage: scripts/apple-typecheck.sh        (exit status 0 when everything type-checks)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/apple-typecheck.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export TMPDIR="$WORK"
mkdir -p "$WORK/stubs" "$WORK/modules" "$WORK/wire"
FLAGS="-swift-version 6 -parse-as-library -package-name assent -warnings-as-errors
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility -I $WORK/stubs -I $WORK/modules"

# The stubs, in dependency order (swift 5 mode: they only declare).
for framework in Security LocalAuthentication CryptoKit CommonCrypto Darwin DeviceCheck; do
    swiftc -swift-version 5 -parse-as-library -I "$WORK/stubs" -emit-module -module-name "$framework" \
        -emit-module-path "$WORK/stubs/$framework.swiftmodule" "$ROOT/scripts/apple-stubs/$framework.swift"
done

# module NAME SOURCES...: type-check the module's bodies, then emit its interface for the next one.
module() {
    name=$1
    shift
    # shellcheck disable=SC2086
    swiftc $FLAGS -typecheck -module-name "$name" "$@"
    # shellcheck disable=SC2086
    swiftc $FLAGS -emit-module -module-name "$name" -emit-module-path "$WORK/modules/$name.swiftmodule" "$@"
    echo "apple typecheck: $name ok"
}

cd "$ROOT"
module AssentSync Sources/AssentSync/*.swift
# shellcheck disable=SC2046
module AssentCrypto $(find Sources/AssentCrypto -name '*.swift' -not -path '*/OpenSSL/*')
cp -r Sources/AssentWire/. "$WORK/wire/"
grep -rl '#if os(Linux)' "$WORK/wire" | xargs -r sed -i 's/#if os(Linux)/#if false/'
# shellcheck disable=SC2046
module AssentWire $(find "$WORK/wire" -name '*.swift')
# shellcheck disable=SC2046
module Assent $(find Sources/Assent -name '*.swift')
module AssentTesting Sources/AssentTesting/*.swift
