// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Assent",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AssentCrypto", targets: ["AssentCrypto"]),
        .library(name: "AssentWire", targets: ["AssentWire"]),
        .library(name: "Assent", targets: ["Assent"]),
        .library(name: "AssentTesting", targets: ["AssentTesting"]),
        .executable(name: "assentd", targets: ["assentd"]),
        .executable(name: "assent", targets: ["assent"]),
    ],
    targets: [
        // C libraries, one module map each.
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CQREncode", path: "Sources/CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Wrappers for C macros and variadic calls that Swift cannot import.
        .target(name: "CShims", linkerSettings: [.linkedLibrary("crypto"), .linkedLibrary("microhttpd")]),
        // libcurl's variadic calls, for the server's push delivery only (so the SDK and crypto never link libcurl).
        .target(name: "CCurlShims", dependencies: ["CCurl"], linkerSettings: [.linkedLibrary("curl")]),

        .target(name: "AssentCrypto", dependencies: ["COpenSSL", "CShims"]),
        .target(name: "AssentWire", dependencies: ["AssentCrypto"]),
        .target(name: "AssentHTTP", dependencies: ["CMicroHTTPD", "CShims"]),
        .target(name: "Assent", dependencies: ["AssentCrypto", "AssentWire"]),
        // What an SDK user's tests need (fake transport, in-memory key store, manual clock), outside the SDK product.
        .target(name: "AssentTesting", dependencies: ["Assent"]),
        .target(name: "AssentQRRender", dependencies: ["CQREncode", "CZlib"]),
        .target(name: "AssentServer", dependencies: ["AssentCrypto", "AssentWire", "AssentHTTP", "AssentQRRender", "CSQLite", "CPostgres", "CCurl", "CCurlShims"]),

        .executableTarget(name: "assentd", dependencies: ["AssentServer"]),
        .executableTarget(name: "assent", dependencies: ["Assent", "AssentServer", "AssentWire", "AssentCrypto"]),
        .executableTarget(name: "assent-bench", dependencies: ["AssentCrypto"], path: "Benchmarks/AssentBench"),

        .testTarget(name: "AssentCryptoTests", dependencies: ["AssentCrypto"]),
        .testTarget(name: "AssentHTTPTests", dependencies: ["AssentHTTP"]),
        .testTarget(name: "AssentServerTests", dependencies: ["AssentServer", "AssentWire", "AssentCrypto", "AssentHTTP"]),
        .testTarget(name: "AssentCLITests", dependencies: ["assent", "AssentServer"]),
        .testTarget(name: "AssentTests", dependencies: ["Assent", "AssentTesting", "AssentWire", "AssentCrypto"]),
        .testTarget(name: "AssentTestingTests", dependencies: ["AssentTesting", "Assent", "AssentCrypto"]),
        // Golden JSON per wire model, read by path from Fixtures/.
        .testTarget(name: "AssentWireTests", dependencies: ["AssentWire"], exclude: ["Fixtures"]),
        .testTarget(name: "AssentBenchTests", dependencies: ["assent-bench"]),
        .testTarget(name: "AssentQRRenderTests", dependencies: ["AssentQRRender"]),
    ],
    swiftLanguageModes: [.v6]
)
