import Foundation
@testable import NetprobeWire
@testable import NetprobeSystem

/// A dbus-daemon of the test's own, on a socket in a directory of its own, letting anyone own
/// any name and call anything: never the machine's bus.
final class PrivateBroker {
    let directory: TemporaryDirectory
    let socket: String
    /// Its socket, without the guid it prints: a broker started again there is the same bus.
    let address: String
    private let process = Process()

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(directory: TemporaryDirectory? = nil) throws {
        self.directory = try directory ?? TemporaryDirectory()
        socket = "\(self.directory.path)/bus"
        let config = "\(self.directory.path)/bus.conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>custom</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
          </policy>
        </busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        guard let program = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"].first(where: FileManager.default.isExecutableFile) else {
            throw Failure(description: "dbus-daemon is not installed (scripts/install-deps test)")
        }
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // It prints its address once it listens; the end of its output first means it failed.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                process.waitUntilExit()
                throw Failure(description: "dbus-daemon exited (status \(process.terminationStatus)) before listening")
            }
            line += chunk
        }
        address = "unix:path=\(socket)"
    }

    func stop() {
        guard process.isRunning else { return }
        // SIGKILL: the test runner's children inherit its blocked signals, SIGTERM among them.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Connections this question made before.
    private var questions = 0

    /// How many connections the broker has accepted, this test's questions' own left out:
    /// dbus-daemon names the Nth connection `:1.(N-1)`, so the asking connection's number is
    /// the count of those before it.
    func connectionsSeen() throws -> Int {
        defer { questions += 1 }
        guard case .opened(let bus) = SystemBus.connect(address: address, within: .seconds(10)),
              case .values(let values) = bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                 "ListNames", within: .seconds(10)),
              case .array(let names) = values.first else {
            throw Failure(description: "the private broker did not answer ListNames")
        }
        return names.compactMap { $0.string }.filter { $0.hasPrefix(":1.") }.compactMap { Int($0.dropFirst(3)) }.max().map { $0 - questions } ?? 0
    }
}

/// A Unix socket that listens and never accepts: the kernel completes each connection into
/// the backlog, and nobody ever reads or writes on it.
final class MuteListener {
    private var descriptor: Int32

    init?(path: String) {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            Glibc.close(descriptor)
            return nil
        }
    }

    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}

/// A fixture program (Tests/support) run by a test, read line by line from its output.
final class FixtureProcess {
    static let supportDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("support")
    private let process = Process()
    private let output = Pipe()
    private var pending = Data()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
    }

    /// The next line it printed, waiting for it; nil once its output ended.
    func nextLine() -> String? {
        while !pending.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { return nil }
            pending += chunk
        }
        let line = pending.prefix { $0 != UInt8(ascii: "\n") }
        pending = Data(pending.dropFirst(line.count + 1))
        return String(decoding: line, as: UTF8.self)
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
