// swift-tools-version:6.0
import PackageDescription

// The SDK side builds everywhere: on Linux over OpenSSL, on iOS and macOS over CryptoKit, CommonCrypto, the Keychain,
// LocalAuthentication and DeviceCheck (docs/apple.md).
var products: [Product] = [
    .library(name: "AssentCrypto", targets: ["AssentCrypto"]),
    .library(name: "AssentWire", targets: ["AssentWire"]),
    .library(name: "Assent", targets: ["Assent"]),
    .library(name: "AssentTesting", targets: ["AssentTesting"]),
]

var targets: [Target] = [
    // C libraries, one module map each.
    .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    // Wrappers for C macros and variadic calls that Swift cannot import, one target per C library, so each
    // module links only the libraries it wraps (the SDK never compiles epoll or links the HTTP server).
    .target(name: "CCryptoShims", dependencies: ["COpenSSL"], linkerSettings: [.linkedLibrary("crypto")]),

    // The lock every module uses instead of `Synchronization.Mutex` (pthread-backed in the ThreadSanitizer build).
    .target(name: "AssentSync"),

    // The SDK side: crypto, the wire models both sides import, the SDK. OpenSSL on Linux only; on Apple platforms the
    // same API runs on CryptoKit and CommonCrypto.
    .target(name: "AssentCrypto", dependencies: [
        .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
        .target(name: "CCryptoShims", condition: .when(platforms: [.linux])),
    ]),
    .target(name: "AssentWire", dependencies: ["AssentCrypto"]),
    .target(name: "Assent", dependencies: ["AssentSync", "AssentCrypto", "AssentWire"]),
    // What an SDK user's tests need (fake transport, in-memory key store, manual clock), outside the SDK product.
    .target(name: "AssentTesting", dependencies: ["AssentSync", "Assent", "AssentCrypto"]),

    // What only Assent's own tests share (processes, temporary directories, a manual clock); not a product, so an
    // app's tests never see it. What an SDK user's tests need is the AssentTesting product.
    .target(name: "AssentTestSupport", dependencies: ["AssentSync"], path: "Tests/AssentTestSupport"),

    .testTarget(name: "AssentCryptoTests", dependencies: ["AssentCrypto", "AssentWire", "AssentTestSupport"]),
    .testTarget(name: "AssentSyncTests", dependencies: ["AssentSync"]),
    .testTarget(name: "AssentTests", dependencies: ["AssentSync", "Assent", "AssentTesting", "AssentWire", "AssentCrypto", "AssentTestSupport"]),
    .testTarget(name: "AssentTestingTests", dependencies: ["AssentTesting", "Assent", "AssentCrypto"]),
    // Golden JSON per wire model, read by path from Fixtures/.
    .testTarget(name: "AssentWireTests", dependencies: ["AssentWire", "AssentCrypto"], exclude: ["Fixtures"]),
]

// The server side, the CLI and their tests are Linux's (libmicrohttpd, epoll, libpq, libcurl): a manifest read on a
// Mac (an iOS app adding the package, `swift test` in the Apple workflow) declares only the SDK side above.
#if os(Linux)
products += [
    .executable(name: "assentd", targets: ["assentd"]),
    .executable(name: "assent", targets: ["assent"]),
]

targets += [
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    .systemLibrary(name: "CQREncode", path: "Sources/CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
    .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .target(name: "CHTTPShims", dependencies: ["CMicroHTTPD"], linkerSettings: [.linkedLibrary("microhttpd"), .linkedLibrary("gnutls")]),
    // libcurl's variadic calls, for the server's push delivery only (so the SDK and crypto never link libcurl).
    .target(name: "CCurlShims", dependencies: ["CCurl"], linkerSettings: [.linkedLibrary("curl")]),

    // The server side, one module per dependency boundary (see docs/architecture.md).
    .target(name: "AssentLog", dependencies: ["AssentSync"]),
    .target(name: "AssentHTTP", dependencies: ["AssentSync", "AssentLog", "AssentCrypto", "CMicroHTTPD", "CHTTPShims"]),
    .target(name: "AssentQRRender", dependencies: ["AssentLog", "CQREncode", "CZlib"]),
    .target(name: "AssentServerCore", dependencies: ["AssentSync", "AssentCrypto", "AssentWire", "AssentLog", "AssentAttestation"]),
    .target(name: "AssentStorage", dependencies: ["AssentSync", "AssentServerCore", "AssentCrypto", "AssentWire", "AssentLog", "CSQLite", "CPostgres"]),
    .target(name: "AssentHTTPClient", dependencies: ["AssentSync", "AssentServerCore", "AssentCrypto", "AssentWire", "AssentLog", "CCurl", "CCurlShims"]),
    // Device attestation (App Attest, Android key attestation): CBOR and DER readers, X.509 through OpenSSL.
    .target(name: "AssentAttestation", dependencies: ["COpenSSL", "AssentCrypto"]),
    .target(name: "AssentServer", dependencies: [
        "AssentSync",
        "AssentServerCore", "AssentStorage", "AssentHTTPClient", "AssentHTTP", "AssentLog", "AssentCrypto", "AssentWire",
        "AssentQRRender", "AssentAttestation",
    ], resources: [
        // openapi/assent.json (a link), compiled in so the server needs no file at run time.
        .embedInCode("OpenAPI/assent.json"),
    ]),

    .executableTarget(name: "assentd", dependencies: ["AssentServer", "AssentStorage", "AssentLog"]),
    // The CLI is a device (the SDK) plus admin commands over the database (core and storage): never the HTTP server.
    // It attests its keys with a test attestation authority (AssentAttestation's writers) for --attest-with.
    .executableTarget(name: "assent", dependencies: [
        "AssentSync", "Assent", "AssentServerCore", "AssentStorage", "AssentWire", "AssentCrypto", "AssentAttestation",
    ]),
    // Writes openapi/assent.json from the endpoint catalogue, the wire types' tables and the tenant settings table
    // (`--check` for drift); a development tool, not a product.
    .executableTarget(name: "assent-openapi", dependencies: ["AssentWire", "AssentServerCore"]),
    // libFuzzer targets for the parsers a stranger feeds (`make fuzz`); an ordinary build replays a corpus.
    .executableTarget(name: "AssentFuzz", dependencies: [
        "AssentServer", "AssentServerCore", "AssentHTTP", "AssentWire", "AssentCrypto", "AssentAttestation",
    ]),

    .testTarget(name: "AssentLogTests", dependencies: ["AssentSync", "AssentLog"]),
    .testTarget(name: "AssentHTTPTests", dependencies: ["AssentSync", "AssentHTTP", "AssentLog", "AssentCrypto", "AssentTestSupport"]),
    .testTarget(name: "AssentServerTests", dependencies: [
        "AssentSync",
        "AssentServer", "AssentServerCore", "AssentStorage", "AssentHTTPClient", "AssentWire", "AssentCrypto", "AssentHTTP",
        "AssentLog", "AssentTestSupport",
    ]),
    .testTarget(name: "AssentServerCoreTests", dependencies: [
        "AssentSync",
        "AssentServerCore", "AssentStorage", "AssentLog", "AssentWire", "AssentTestSupport", "AssentAttestation",
    ]),
    .testTarget(name: "AssentStorageTests", dependencies: [
        "AssentSync",
        "AssentStorage", "AssentServerCore", "AssentLog", "AssentWire", "AssentCrypto", "AssentTestSupport",
    ]),
    .testTarget(name: "AssentHTTPClientTests", dependencies: ["AssentSync", "AssentHTTPClient", "AssentServerCore", "AssentCrypto", "AssentWire", "AssentLog"]),
    .testTarget(name: "AssentCLITests", dependencies: [
        "assent", "AssentServerCore", "AssentStorage", "AssentTestSupport", "AssentCrypto", "AssentWire",
    ]),
    .testTarget(name: "AssentQRRenderTests", dependencies: ["AssentQRRender", "AssentTestSupport"]),
    .testTarget(name: "AssentFuzzTests", dependencies: ["AssentFuzz"]),
    // Known-answer vectors (Tests/Vectors/attestation) and test-authority fixtures, read by path.
    .testTarget(name: "AssentAttestationTests", dependencies: ["AssentAttestation", "AssentCrypto", "AssentWire"]),
]
#endif

let package = Package(
    name: "Assent",
    // iOS 18 / macOS 15: the floor of `Synchronization.Mutex`, which AssentSync wraps.
    platforms: [.iOS(.v18), .macOS(.v15)],
    products: products,
    targets: targets,
    swiftLanguageModes: [.v6]
)

// Every target: existentials spelled `any`, imports internal unless a module's API shows the imported types (then
// `public import` in the SDK, `package import` on the server side), and members visible only from modules a file
// imports itself.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
