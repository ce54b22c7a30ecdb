import Foundation
import Testing

/// libcurl is dlopened on the first transfer, never at exec, and libsystemd (sd-bus, to ask
/// NetworkManager and systemd-resolved) on the first D-Bus question, asked only when a gate
/// passed: what sends nothing must load neither. The dynamic loader itself is the witness (LD_DEBUG=files lists every object it
/// maps, dlopened ones included), so these tests see what really happened, not a flag.
@Suite(.timeLimit(.minutes(2)))
struct LibraryLoadingTests {
    /// Runs netprobe with the loader's log on; returns the run and whether libcurl and
    /// libsystemd were loaded.
    private func traced(_ arguments: [String], network: Network = .loopbackOnly, servers: [String] = [],
                        in sandbox: Sandbox) throws -> (Run, loadedCurl: Bool, loadedSystemd: Bool) {
        let logs = sandbox.path("ld-\(arguments.first ?? "none")-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        // Every process of the run writes LOG.PID; only netprobe could ever map libcurl.
        let run = try sandbox.run(arguments, network: network, servers: servers,
                                  environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": logs + "/ld"])
        let files = try FileManager.default.contentsOfDirectory(atPath: logs)
        #expect(!files.isEmpty, "the loader wrote no log: LD_DEBUG is not honoured here")
        let texts = try files.map { try String(contentsOfFile: logs + "/" + $0, encoding: .utf8) }
        return (run, texts.contains { $0.contains("file=libcurl.so.4") }, texts.contains { $0.contains("file=libsystemd.so.0") })
    }

    @Test(arguments: [
        ["--json"], ["path", "--json"], ["config", "check"], ["--help"], ["--version"],
    ])
    func whatSendsNothingNeverLoadsLibcurl(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let (run, loadedCurl, loadedSystemd) = try traced(arguments, in: sandbox)
        #expect(run.status <= 1, "\(run)")
        #expect(!loadedCurl, "libcurl was loaded by netprobe \(arguments.joined(separator: " "))")
        #expect(!loadedSystemd, "libsystemd was loaded by netprobe \(arguments.joined(separator: " "))")
    }

    /// The control: the same trace does see libcurl when a probe is really sent, and libsystemd
    /// where the machine has it (the owners of the link are asked then).
    @Test func aCheckThatSendsLoadsLibcurl() throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.healthy(3))
        let (run, loadedCurl, loadedSystemd) = try traced(["--json", "--config", config], network: .online,
                                                          servers: [ProbeSet.httpServer], in: sandbox)
        #expect(run.status == 0, "\(run)")
        #expect(loadedCurl)
        #expect(loadedSystemd == (try Self.loaderFinds("libsystemd.so.0")))
    }

    /// Without a loadable libcurl.so.4 (here: /dev/null mounted over it, in the test's own mount
    /// namespace), what sends nothing still works, and a check that must send says why it cannot.
    @Test func aMissingLibcurlIsExit70WithWhatToInstall() throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.healthy(3))
        let hide = ["/bin/sh", "-c",
                    "lib=$(ldconfig -p | awk '/libcurl\\.so\\.4 /{print $NF; exit}') && mount --bind /dev/null \"$lib\" && exec \"$@\"",
                    "hide-libcurl"]
        let offline = try sandbox.run(["--json", "--config", config], network: .noRoute, wrapper: hide)
        #expect(offline.status == 1, "\(offline)")
        let online = try sandbox.run(["--json", "--config", config], network: .online, wrapper: hide)
        #expect(online.status == 70, "\(online)")
        #expect(online.stderr.contains("cannot load libcurl.so.4"), "\(online)")
        #expect(online.stderr.contains("install libcurl4"), "\(online)")
        #expect(online.stdout.isEmpty, "\(online)")
    }

    /// A libcurl older than netprobe can use (here a stand-in libcurl.so.4 that says it is
    /// 7.60.0, mounted over the real one) is refused at load, naming the version found and the
    /// one needed; what sends nothing still works.
    @Test func aTooOldLibcurlIsExit70NamingItsVersion() throws {
        let sandbox = try Sandbox()
        let config = try sandbox.write(ProbeSet.healthy(3))
        // curl_version_info's answer begins: age, version, version_num.
        let source = sandbox.path("old-curl.c")
        try """
            struct info { int age; const char *version; unsigned int version_num; };
            static struct info old = { 0, "7.60.0", 0x073c00 };
            void *curl_version_info(int stamp) { (void)stamp; return &old; }
            """.write(toFile: source, atomically: true, encoding: .utf8)
        let library = sandbox.path("libcurl.so.4")
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["clang", "-shared", "-fPIC", "-o", library, source]
        try compiler.run()
        compiler.waitUntilExit()
        try #require(compiler.terminationStatus == 0, "clang could not build the stand-in libcurl")
        let replace = ["/bin/sh", "-c",
                       "lib=$(ldconfig -p | awk '/libcurl\\.so\\.4 /{print $NF; exit}') && mount --bind \"$0\" \"$lib\" && exec \"$@\"",
                       library]
        let offline = try sandbox.run(["--json", "--config", config], network: .noRoute, wrapper: replace)
        #expect(offline.status == 1, "\(offline)")
        let online = try sandbox.run(["--json", "--config", config], network: .online, wrapper: replace)
        #expect(online.status == 70, "\(online)")
        #expect(online.stderr.contains("it is libcurl 7.60.0; netprobe needs libcurl 7.66.0 or newer"), "\(online)")
        #expect(online.stdout.isEmpty, "\(online)")
    }

    /// Whether the machine's own loader finds `soname` (its cache, as `dlopen` would), wherever
    /// this distribution and architecture keep libraries.
    static func loaderFinds(_ soname: String) throws -> Bool {
        let ldconfig = Process()
        ldconfig.executableURL = URL(fileURLWithPath: "/sbin/ldconfig")
        ldconfig.arguments = ["-p"]
        let output = Pipe()
        ldconfig.standardOutput = output
        try ldconfig.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldconfig.waitUntilExit()
        return text.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") }
    }
}
