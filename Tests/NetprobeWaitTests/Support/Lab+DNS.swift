import Foundation

/// Name resolution in a lab namespace: `ip netns exec` bind-mounts /etc/netns/NAME/resolv.conf
/// over /etc/resolv.conf for what it runs, so netprobe reads the lab's file, and writing that
/// file in place is what netprobe sees change. dnsmasq instances answer on loopback addresses.
extension Lab {
    var resolvConf: String { "/etc/netns/\(namespace)/resolv.conf" }

    /// Writes the namespace's resolv.conf in place (same inode: the bind mount keeps showing it).
    func writeResolvConf(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: "/etc/netns/\(namespace)", withIntermediateDirectories: true)
        let handle = FileHandle(forWritingAtPath: resolvConf) ?? {
            _ = FileManager.default.createFile(atPath: resolvConf, contents: nil)
            return FileHandle(forWritingAtPath: resolvConf)
        }()
        guard let handle else { throw Tool.Failure(description: "cannot write \(resolvConf)") }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    func removeResolvConf() {
        try? FileManager.default.removeItem(atPath: "/etc/netns/\(namespace)")
    }

    /// dnsmasq on `address`:53 in the namespace: `probe.test` resolves to 127.0.0.1, or to
    /// nothing (NXDOMAIN) when `answering` is false. Every query is logged to the returned log
    /// file; the returned pid is the daemon's, to kill with SIGKILL. It inherits the signal mask
    /// of the test's thread, a Dispatch worker that blocks every asynchronous signal, and never
    /// unblocks SIGTERM: sent SIGTERM, both daemons outlived every run (`Lab.close` now also
    /// sweeps the namespace by pid). It runs as a daemon, not a `Child`:
    /// dnsmasq closes every inherited descriptor at start, which Foundation's Process takes
    /// for the child's exit (and then blocks reaping it, and every other child after it).
    func dnsServer(on address: String, answering: Bool) throws -> (pid: Int32, log: String) {
        let log = directory + "/dns-\(address).log", pidFile = directory + "/dns-\(address).pid"
        try Tool.run(Tool.ip, ["netns", "exec", namespace, Tool.find("dnsmasq"), "--no-resolv", "--no-hosts",
                               "--bind-interfaces", "--listen-address=\(address)", "--port=53", "--pid-file=\(pidFile)",
                               "--user=root", "--log-queries", "--log-facility=\(log)",
                               answering ? "--address=/probe.test/127.0.0.1" : "--address=/probe.test/"])
        var pid: Int32?
        guard FileEvents.until(directory, timeout: 10, {
            pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return pid != nil
        }), let pid else { throw Tool.Failure(description: "dnsmasq on \(address) did not start") }
        return (pid, log)
    }

    /// The lab's probe set with its URLs by name (probe.test) instead of by address.
    func configByName() throws -> String {
        let text = try String(contentsOfFile: config, encoding: .utf8)
        return try file("probes-by-name.json", text.replacingOccurrences(of: "http://127.0.0.1/", with: "http://probe.test/"))
    }
}
