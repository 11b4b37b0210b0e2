// swift-tools-version:6.0
// The benchmarks are a package of their own, so the load generator is built only when someone benchmarks and it
// sees Assent the way any client does: through the root package's public `AssentCrypto` product.
import PackageDescription

let package = Package(
    name: "AssentBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "assent-bench", targets: ["assent-bench"]),
    ],
    dependencies: [
        .package(name: "Assent", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "assent-bench",
            dependencies: [.product(name: "AssentCrypto", package: "Assent")],
            path: "Sources/AssentBench"),
        .testTarget(
            name: "AssentBenchTests",
            dependencies: ["assent-bench", .product(name: "AssentCrypto", package: "Assent")]),
    ],
    swiftLanguageModes: [.v6]
)

// As in the root package: existentials spelled `any`, internal imports by default, members visible only from modules
// a file imports itself.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
