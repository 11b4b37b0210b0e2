#!/usr/bin/env python3
"""Checks Assent's module graph: what the SDK, the testing library and the CLI must never depend on, however
indirectly, and that the domain core stays free of HTTP, SQL and libcurl.

It walks `swift package describe --type json` transitively from each checked target, then looks inside every C target
it reached: a system library's module map (`link "..."`) and a shim's sources (`#include <...>`). So a new dependency,
a shim that starts including another library's header, or a module map that links one more library, is caught.

It also checks that docs/module-graph.dot (the source of the picture in docs/architecture.md) is the graph the
package describes today; `--dot` prints that graph, so after a change of targets:
    scripts/check-module-graph.py --dot > docs/module-graph.dot
    tred docs/module-graph.dot | dot -Tsvg > docs/module-graph.svg   (tred: Graphviz's transitive reduction)

On Apple platforms the SDK builds on CryptoKit, CommonCrypto and the Keychain instead of OpenSSL: the C targets are
dependencies only `.when(platforms: [.linux])`. `swift package describe` drops those conditions, so the Apple rule reads
`swift package dump-package` and walks, for iOS and macOS, only the dependencies that apply there: the `Assent` and
`AssentTesting` products must reach no C or system-library target and link no library.

Usage: scripts/check-module-graph.py [--dot] [DESCRIBE.json [DUMP.json]]   (without files it runs `swift package`)
Exit status 0 when every rule holds, 1 with one line per broken rule otherwise.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What makes a target "the HTTP server", "a database driver", "libcurl" and so on: Swift modules, C libraries linked,
# C headers included.
SERVER_MODULES = {"AssentServer", "AssentHTTP", "AssentStorage", "AssentHTTPClient", "AssentServerCore"}
FORBIDDEN = {
    "the HTTP server": {"modules": {"AssentHTTP", "AssentServer", "CMicroHTTPD", "CHTTPShims"},
                        "libraries": {"microhttpd", "gnutls"}, "headers": {"microhttpd.h", "gnutls/gnutls.h", "gnutls/abstract.h"}},
    "epoll": {"modules": set(), "libraries": set(), "headers": {"sys/epoll.h", "sys/eventfd.h"}},
    "a database driver": {"modules": {"AssentStorage", "CSQLite", "CPostgres"},
                          "libraries": {"sqlite3", "pq"}, "headers": {"sqlite3.h", "libpq-fe.h"}},
    "libcurl": {"modules": {"AssentHTTPClient", "CCurl", "CCurlShims"}, "libraries": {"curl"},
                "headers": {"curl/curl.h"}},
    "the server's domain": {"modules": SERVER_MODULES, "libraries": set(), "headers": set()},
}

# target -> what its transitive closure must not contain.
RULES = {
    "Assent": ["the HTTP server", "epoll", "a database driver", "libcurl", "the server's domain"],
    "AssentTesting": ["the HTTP server", "epoll", "a database driver", "libcurl", "the server's domain"],
    "AssentCrypto": ["the HTTP server", "epoll", "a database driver", "libcurl", "the server's domain"],
    "AssentWire": ["the HTTP server", "epoll", "a database driver", "libcurl", "the server's domain"],
    "assent": ["the HTTP server", "epoll", "libcurl"],
    "AssentServerCore": ["the HTTP server", "epoll", "a database driver", "libcurl"],
    "AssentLog": ["the HTTP server", "epoll", "a database driver", "libcurl", "the server's domain"],
    "AssentSync": ["the HTTP server", "epoll", "a database driver", "libcurl", "the server's domain"],
    # The attestation verifiers are pure parsing and crypto: no server, no database, no network.
    "AssentAttestation": ["the HTTP server", "epoll", "a database driver", "libcurl", "the server's domain"],
}


DOT_FILE = os.path.join(ROOT, "docs", "module-graph.dot")

# How each kind of target is drawn.
LAYERS = [
    ("both sides", {"AssentSync"}, "#ead1dc"),
    ("SDK side (library products)", {"AssentCrypto", "AssentWire", "Assent", "AssentTesting"}, "#d9ead3"),
    ("server side", {"AssentLog", "AssentHTTP", "AssentQRRender", "AssentServerCore", "AssentStorage", "AssentHTTPClient",
                     "AssentServer", "AssentAttestation"}, "#cfe2f3"),
    ("executables", {"assentd", "assent", "AssentFuzz"}, "#fff2cc"),
]


def conditional_edges(manifest):
    """(target, dependency) -> the platforms it is limited to, for dependencies with a platform condition."""
    edges = {}
    for target in manifest["targets"]:
        for dependency in target["dependencies"]:
            (reference, *rest), = dependency.values()
            condition = rest[-1] if rest and isinstance(rest[-1], dict) else None
            if condition and condition.get("platformNames"):
                edges[(target["name"], reference)] = sorted(condition["platformNames"])
    return edges


def dot(package, conditional):
    """The module graph of everything but tests, as Graphviz source: Swift modules in boxes by layer, C in grey, and a
    dependency that only some platforms have dashed and labelled with them."""
    targets = [t for t in package["targets"] if t["type"] != "test" and not t["name"].endswith("TestSupport")]
    lines = ["// The module graph of Assent, made by scripts/check-module-graph.py --dot (do not edit by hand).",
             "digraph Assent {", '  rankdir=BT; node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11];',
             '  edge [color="#555555"];']
    for index, (label, names, colour) in enumerate(LAYERS):
        members = sorted(t["name"] for t in targets if t["name"] in names)
        lines.append(f'  subgraph cluster_{index} {{ label="{label}"; style=dashed; color="#999999";')
        lines.extend(f'    "{name}" [fillcolor="{colour}"];' for name in members)
        lines.append("  }")
    drawn = set().union(*(names for _, names, _ in LAYERS))
    for target in sorted(targets, key=lambda t: t["name"]):
        if target["name"] not in drawn:
            lines.append(f'  "{target["name"]}" [fillcolor="#eeeeee", fontsize=9];')
    for target in sorted(targets, key=lambda t: t["name"]):
        for dependency in sorted(target.get("target_dependencies") or []):
            platforms = conditional.get((target["name"], dependency))
            style = f' [style=dashed, label="{" ".join(platforms)}"]' if platforms else ""
            lines.append(f'  "{target["name"]}" -> "{dependency}"{style};')
    lines.append("}")
    return "\n".join(lines) + "\n"


def swift_package(index, arguments):
    """The JSON of `swift package <arguments>`, or of the index-th file named on the command line."""
    files = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(files) > index:
        with open(files[index]) as handle:
            return json.load(handle)
    output = subprocess.run(["swift", "package"] + arguments, cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    return json.loads(output[output.index("{"):])


def describe():
    return swift_package(0, ["describe", "--type", "json"])


# The SDK's products on Apple platforms, and the platforms (dump-package's names) they must build for.
APPLE_PRODUCTS = ["Assent", "AssentTesting"]
APPLE_PLATFORMS = ["ios", "macos"]


def applies(condition, platform):
    """Whether a dependency or setting with dump-package's `condition` applies on `platform`."""
    names = (condition or {}).get("platformNames") or []
    return not names or platform in names


def apple_failures(manifest, described):
    """Why an SDK product, built for an Apple platform, would reach C code or link a library: empty when it does not."""
    targets = {t["name"]: t for t in manifest["targets"]}
    kinds = {t["name"]: t["module_type"] for t in described["targets"]}
    products = {p["name"]: p["targets"] for p in manifest["products"]}
    declared = {p["platformName"] for p in manifest.get("platforms") or []}
    failures = [f"Package.swift names no {platform} platform" for platform in APPLE_PLATFORMS if platform not in declared]
    for product in APPLE_PRODUCTS:
        for platform in APPLE_PLATFORMS:
            seen, stack = set(), list(products.get(product, []))
            while stack:
                name = stack.pop()
                if name in seen or name not in targets:
                    continue
                seen.add(name)
                for dependency in targets[name]["dependencies"]:
                    (reference, *rest), = dependency.values()
                    condition = rest[-1] if rest and isinstance(rest[-1], dict) else None
                    if applies(condition, platform):
                        stack.append(reference)
            c_code = sorted(n for n in seen if targets[n]["type"] == "system" or kinds.get(n) != "SwiftTarget")
            libraries = sorted(setting["kind"]["linkedLibrary"]["_0"] for n in seen for setting in targets[n].get("settings") or []
                               if "linkedLibrary" in setting["kind"] and applies(setting.get("condition"), platform))
            if c_code or libraries:
                what = ", ".join(c_code + [f"-l{x}" for x in libraries])
                failures.append(f"product {product} on {platform} reaches C code or a system library: {what}")
    return failures


def closure(targets, name):
    seen, stack = set(), [name]
    while stack:
        current = stack.pop()
        if current in seen or current not in targets:
            continue
        seen.add(current)
        stack.extend(targets[current].get("target_dependencies") or [])
    return seen


def c_facts(target):
    """Libraries a C target links (module map) and headers its sources include."""
    path = os.path.join(ROOT, target["path"])
    libraries, headers = set(), set()
    for folder, _, files in os.walk(path):
        for file in files:
            text = open(os.path.join(folder, file), errors="replace").read()
            if file == "module.modulemap":
                libraries.update(re.findall(r'link\s+"([^"]+)"', text))
            if file.endswith((".c", ".h")):
                headers.update(re.findall(r'#\s*include\s*[<"]([^>"]+)[>"]', text))
    return libraries, headers


def bare_mutexes():
    """Swift files that use Synchronization.Mutex directly instead of AssentLock (Sources/AssentSync): ThreadSanitizer
    cannot see a Mutex on Linux, so `make sanitize` would report everything it protects as a race."""
    found = []
    for folder in ("Sources", "Tests"):
        for directory, _, files in os.walk(os.path.join(ROOT, folder)):
            if os.path.relpath(directory, ROOT).startswith(os.path.join("Sources", "AssentSync")):
                continue
            for file in files:
                if file.endswith(".swift"):
                    path = os.path.join(directory, file)
                    if re.search(r"\bMutex\s*[<(]", open(path, encoding="utf-8").read()):
                        found.append(os.path.relpath(path, ROOT))
    return sorted(found)


def main():
    package = describe()
    manifest = swift_package(1, ["dump-package"])
    graph = dot(package, conditional_edges(manifest))
    if "--dot" in sys.argv:
        sys.stdout.write(graph)
        return 0
    targets = {t["name"]: t for t in package["targets"]}
    failures = []
    checked = 0
    for name, rules in RULES.items():
        if name not in targets:
            failures.append(f"{name}: no such target (update scripts/check-module-graph.py)")
            continue
        reached = closure(targets, name)
        linked, included = set(), set()
        for dependency in reached:
            if targets[dependency]["module_type"] in ("ClangTarget", "SystemLibraryTarget"):
                libraries, headers = c_facts(targets[dependency])
                linked |= libraries
                included |= headers
        for rule in rules:
            forbidden = FORBIDDEN[rule]
            modules = (reached - {name}) & forbidden["modules"]
            libraries = linked & forbidden["libraries"]
            headers = included & forbidden["headers"]
            if modules or libraries or headers:
                what = ", ".join(sorted(modules | {f"-l{x}" for x in libraries} | {f"<{x}>" for x in headers}))
                failures.append(f"{name} reaches {rule}: {what}")
            checked += 1
    failures.extend(apple_failures(manifest, package))
    checked += len(APPLE_PRODUCTS) * len(APPLE_PLATFORMS)
    if not os.path.exists(DOT_FILE) or open(DOT_FILE).read() != graph:
        failures.append("docs/module-graph.dot is not the graph the package describes; regenerate it (see --dot)")
    failures.extend(f"{path} uses Mutex; use AssentLock (Sources/AssentSync)" for path in bare_mutexes())
    for line in failures:
        print(f"module graph: {line}", file=sys.stderr)
    if not failures:
        print(f"module graph: {checked} rules hold for {len(RULES)} targets")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
