// swift-tools-version:6.2
import PackageDescription

/// Every target of this package builds with no warning: a new one fails the build (SwiftPM 6.2's
/// warning control; it applies to these targets only, never to dependencies).
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "Liftboard",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "liftboard", targets: ["liftboard"]),
        .executable(name: "liftboard-fuzz", targets: ["LiftboardFuzz"]),
        .library(name: "LiftboardCore", targets: ["LiftboardCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The pure engine: geometry, layouts, recognizers, reorder, Session. Imports nothing.
        .target(name: "LiftboardCore", swiftSettings: strict),
        // JSON codec of the protocol, validation, limits, error codes.
        .target(name: "LiftboardWire", dependencies: ["LiftboardCore"], swiftSettings: strict),
        // SQLite persistence of boards and commits.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // PostgreSQL's client library, for boards shared by several server processes.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),
        .target(name: "LiftboardStore", dependencies: ["LiftboardCore", "CSQLite", "CLibPQ"], swiftSettings: strict),
        // libwebsockets transport, static files, TLS, hub, HTTP API.
        .systemLibrary(name: "CLibWebSockets", pkgConfig: "libwebsockets",
                       providers: [.apt(["libwebsockets-dev"])]),
        // No unsafeFlags: the exclusivity flag it had cost 5.6 % of a message's instructions
        // to remove (docs/performance.md, "The exclusivity flag, measured again and removed").
        // The built-in kanban board is Examples/boards/kanban.json (Resources/kanban.json links
        // to it), compiled into the binary as bytes (`PackageResources.kanban_json`): no bundle
        // to ship beside a static binary, and no second copy to keep in step (issue 39).
        .target(name: "LiftboardServer",
                dependencies: ["LiftboardCore", "LiftboardWire", "LiftboardStore", "LiftboardAuth", "CLibWebSockets"],
                resources: [.embedInCode("Resources/kanban.json")],
                swiftSettings: strict),
        // OpenSSL's libcrypto (libssl-dev), for token signatures.
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        // Signed tokens (issue 42): JWKS keys, strict JWT verification, claims and roles.
        .target(name: "LiftboardAuth", dependencies: ["LiftboardCore", "LiftboardWire", "CLibCrypto"], swiftSettings: strict),
        // The load generator: WebSocket clients (its own, on epoll) driving real sessions.
        .systemLibrary(name: "CLoadSockets"),
        .target(name: "LiftboardLoad", dependencies: ["LiftboardCore", "LiftboardWire", "CLoadSockets"], swiftSettings: strict),
        // Gesture scripts (`liftboard test`, `liftboard describe`): parser, the closed-loop
        // compiler that drives `Session`, expectations, reports, JUnit.
        .target(name: "LiftboardScript", dependencies: ["LiftboardCore", "LiftboardWire"], swiftSettings: strict),
        .executableTarget(name: "liftboard", dependencies: [
            "LiftboardCore", "LiftboardWire", "LiftboardStore", "LiftboardServer", "LiftboardLoad",
            "LiftboardScript", "LiftboardAuth",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: strict),
        // Fuzz targets (Wire.decodeClient, Session with its invariants, the token verifier): see scripts/fuzz.
        .executableTarget(name: "LiftboardFuzz", dependencies: ["LiftboardCore", "LiftboardWire", "LiftboardAuth"], swiftSettings: strict),
        .testTarget(name: "LiftboardCoreTests", dependencies: ["LiftboardCore"], swiftSettings: strict),
        .testTarget(name: "LiftboardWireTests", dependencies: ["LiftboardCore", "LiftboardWire"],
                    exclude: ["Golden", "ContractExamples"], swiftSettings: strict),
        .testTarget(name: "LiftboardStoreTests", dependencies: ["LiftboardCore", "LiftboardWire", "LiftboardStore"], swiftSettings: strict),
        // The server's deciding types (hub, connection, router, feeds) driven without sockets.
        .testTarget(name: "LiftboardServerTests",
                    dependencies: ["LiftboardCore", "LiftboardWire", "LiftboardStore", "LiftboardServer", "LiftboardAuth"], swiftSettings: strict),
        .testTarget(name: "LiftboardLoadTests", dependencies: ["LiftboardCore", "LiftboardWire", "LiftboardLoad"], swiftSettings: strict),
        .testTarget(name: "LiftboardAuthTests", dependencies: ["LiftboardCore", "LiftboardWire", "LiftboardAuth"],
                    exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(name: "LiftboardScriptTests", dependencies: ["LiftboardCore", "LiftboardWire", "LiftboardScript"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
