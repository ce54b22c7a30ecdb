// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "netprobe",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "netprobe", targets: ["netprobe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // FileDescriptor open/read/fstat with EINTR retry and typed Errno, for CheckedFile.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.0"),
    ],
    targets: [
        // libcurl's headers (libcurl4-openssl-dev) at build time; libcurl.so.4 itself is
        // dlopened on the first transfer (loader.c), so the binary does not link it.
        .target(name: "CCurl"),
        .systemLibrary(
            name: "CNetlink",
            pkgConfig: "libnl-route-3.0",
            providers: [.apt(["libnl-3-dev", "libnl-route-3-dev"])]
        ),
        // Pure Swift: configuration, evidence, the verdict engine, reports and formatters.
        // CheckedFile (and so ConfigParser.load) opens files through swift-system and
        // DirectoryListing lists directories; the rest is pure Swift, and the fuzz targets
        // compile it without those three files (see Makefile).
        .target(
            name: "NetprobeCore",
            dependencies: [.product(name: "SystemPackage", package: "swift-system")]
        ),
        // The kernel's view (libnl): links, addresses, routes, change events.
        .target(name: "NetprobeLink", dependencies: ["NetprobeCore", "CNetlink"]),
        // The network's answer (libcurl multi): concurrent probes.
        .target(name: "NetprobeHTTP", dependencies: ["NetprobeCore", "CCurl"]),
        // The pipeline that joins them: path snapshot -> gate -> probes -> verdict.
        .target(name: "NetprobeKit", dependencies: ["NetprobeCore", "NetprobeLink", "NetprobeHTTP",
                                                   .product(name: "SystemPackage", package: "swift-system")]),
        .executableTarget(
            name: "netprobe",
            dependencies: [
                "NetprobeKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The verdict tables' one helper (`VerdictEngine.decide`), shared by the test targets
        // that judge evidence; never linked into netprobe.
        .target(name: "VerdictTables", dependencies: ["NetprobeCore"], path: "Tests/VerdictTables"),
        .testTarget(name: "NetprobeCoreTests", dependencies: ["NetprobeCore", "VerdictTables"]),
        .testTarget(name: "NetprobeHTTPTests", dependencies: ["NetprobeHTTP", "NetprobeCore"]),
        .testTarget(name: "NetprobeLinkTests", dependencies: ["NetprobeLink", "NetprobeCore"]),
        .testTarget(name: "NetprobeCLITests", dependencies: ["NetprobeCore"]),
        .testTarget(name: "NetprobeWaitTests", dependencies: ["NetprobeCore"]),
        .testTarget(name: "NetprobePortalTests", dependencies: ["NetprobeCore", "NetprobeKit", "VerdictTables"]),
        // The check loop in-process, on a scripted runner and a fixed kernel view: no namespaces, milliseconds.
        .testTarget(name: "NetprobeKitTests", dependencies: ["NetprobeKit", "NetprobeCore", "NetprobeHTTP"]),
    ],
    swiftLanguageModes: [.v6]
)
