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
        // libsystemd's sd-bus, dlopened on the first question to a daemon that configures links
        // (loader.c; libsystemd exports no sd-network, networkd is asked over D-Bus too): the
        // binary does not link libsystemd either.
        .target(name: "CSystemd"),
        // glibc functions Swift's Glibc module leaves out (timerfd, malloc_trim,
        // posix_spawn_file_actions_addclosefrom_np, a filtered packet socket), declared once with their types, and the
        // command line kept before main (arguments.c: Swift reads it from /proc).
        .target(name: "CLibc"),
        .systemLibrary(
            name: "CNetlink",
            pkgConfig: "libnl-route-3.0",
            providers: [.apt(["libnl-3-dev", "libnl-route-3-dev"])]
        ),
        // Every format netprobe reads or writes as bytes, as pure parsers and writers: JSON,
        // probes.json, DNS messages, addresses and URLs, portal markup (WISPr, meta refresh),
        // captive+json, RFC 3339 times, the terminal and HTML escapers. Each parser has a fuzz
        // target (fuzz/targets), which compiles this module without the file system.
        .target(name: "NetprobeWire"),
        // What is known of a link from its DHCP server and the programs that configured it: DHCP
        // messages and leases, link state files, the owners' D-Bus answers, and the packets a
        // packet socket hands over. Pure parsers, each fuzzed (the `lease` target), as NetprobeWire's.
        .target(name: "NetprobeLinkState", dependencies: ["NetprobeWire"]),
        // The model of a check (what the kernel said, what each probe saw) and the pure function
        // that turns it into a verdict, a reason and the portal's page: table-tested.
        .target(name: "NetprobeVerdict", dependencies: ["NetprobeWire"]),
        // A check's report as text, JSON or Prometheus, each through its output edge's escaper.
        .target(name: "NetprobeOutput", dependencies: ["NetprobeWire", "NetprobeVerdict"]),
        // `netprobe report`: watch's JSON Lines summarised as text, JSON or HTML.
        .target(name: "NetprobeReport", dependencies: ["NetprobeWire", "NetprobeVerdict", "NetprobeOutput"]),
        // The kernel's edge: links, addresses, routes and change events through libnl, the
        // resolver configuration, and the one way files are read (checked on the descriptor).
        .target(name: "NetprobeSystem", dependencies: ["NetprobeWire", "NetprobeLinkState", "NetprobeVerdict", "CNetlink", "CLibc", "CSystemd",
                                                      .product(name: "SystemPackage", package: "swift-system")]),
        // The network's edge: HTTP probes through libcurl's multi interface, DNS questions to a
        // link's resolvers, the DHCPINFORM (a packet socket from CLibc). Sends; never judges.
        .target(name: "NetprobeNetwork", dependencies: ["NetprobeWire", "NetprobeLinkState", "NetprobeVerdict", "NetprobeSystem", "CCurl",
                                                       "CLibc"]),
        // One check, start to finish: path snapshot -> gate -> plan -> transfers -> verdict.
        .target(name: "NetprobeCheck", dependencies: ["NetprobeWire", "NetprobeLinkState", "NetprobeVerdict", "NetprobeOutput",
                                                     "NetprobeSystem", "NetprobeNetwork",
                                                     .product(name: "SystemPackage", package: "swift-system")]),
        // The loops that re-check as the network changes: `wait`, and `watch` as a service
        // (events, hold, records, hooks, textfile).
        .target(name: "NetprobeWatch", dependencies: ["CLibc", "NetprobeWire", "NetprobeVerdict", "NetprobeOutput",
                                                     "NetprobeSystem", "NetprobeNetwork", "NetprobeCheck",
                                                     .product(name: "SystemPackage", package: "swift-system")]),
        .executableTarget(
            name: "netprobe",
            dependencies: [
                "NetprobeWire", "NetprobeVerdict", "NetprobeOutput", "NetprobeReport",
                "NetprobeSystem", "NetprobeNetwork", "NetprobeCheck", "NetprobeWatch",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The verdict tables' one helper (`VerdictEngine.decide`), shared by the test targets
        // that judge evidence; never linked into netprobe.
        .target(name: "VerdictTables", dependencies: ["NetprobeWire", "NetprobeVerdict"], path: "Tests/VerdictTables"),
        // The pure modules: parsers, the verdict tables, formatters, the report.
        .testTarget(name: "NetprobePureTests", dependencies: ["NetprobeWire", "NetprobeLinkState", "NetprobeVerdict", "NetprobeOutput", "NetprobeReport", "NetprobeSystem", "NetprobeNetwork", "NetprobeCheck", "NetprobeWatch", "VerdictTables"]),
        // libcurl against loopback servers, and the DNS exchange.
        .testTarget(name: "NetprobeNetworkTests", dependencies: ["NetprobeWire", "NetprobeLinkState", "NetprobeVerdict", "NetprobeOutput", "NetprobeReport", "NetprobeSystem", "NetprobeNetwork", "NetprobeCheck", "NetprobeWatch"]),
        // netlink and files in real network namespaces.
        .testTarget(name: "NetprobeSystemTests", dependencies: ["NetprobeWire", "NetprobeLinkState", "NetprobeVerdict", "NetprobeOutput", "NetprobeReport", "NetprobeSystem", "NetprobeNetwork", "NetprobeCheck", "NetprobeWatch"]),
        // The built netprobe, run as a user runs it.
        .testTarget(name: "NetprobeCLITests", dependencies: ["NetprobeWire", "NetprobeLinkState", "NetprobeVerdict", "NetprobeOutput", "NetprobeReport", "NetprobeSystem", "NetprobeNetwork", "NetprobeCheck", "NetprobeWatch"]),
        .testTarget(name: "NetprobeWaitTests", dependencies: ["NetprobeWire", "NetprobeLinkState", "NetprobeVerdict", "NetprobeOutput", "NetprobeReport", "NetprobeSystem", "NetprobeNetwork", "NetprobeCheck", "NetprobeWatch"]),
        .testTarget(name: "NetprobePortalTests", dependencies: ["NetprobeWire", "NetprobeLinkState", "NetprobeVerdict", "NetprobeOutput", "NetprobeReport", "NetprobeSystem", "NetprobeNetwork", "NetprobeCheck", "NetprobeWatch", "VerdictTables"]),
        // The check, wait and watch loops in-process, on a scripted runner and a fixed kernel
        // view: no namespaces, milliseconds.
        .testTarget(name: "NetprobeLoopTests", dependencies: ["NetprobeWire", "NetprobeLinkState", "NetprobeVerdict", "NetprobeOutput", "NetprobeReport", "NetprobeSystem", "NetprobeNetwork", "NetprobeCheck", "NetprobeWatch"]),
    ],
    swiftLanguageModes: [.v6]
)
