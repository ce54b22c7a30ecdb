import Foundation
import Synchronization

/// A throwaway network namespace (`ip netns add np-link-<pid>-<n>`), unique per
/// test so tests can run in parallel. Use through `withNamespace`, which always
/// deletes it.
struct NetworkNamespace: Sendable {
    let name: String

    private static let counter = Atomic<Int>(0)

    fileprivate init() throws {
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        name = "np-link-\(getpid())-\(number)"
        // A namespace left behind by a crashed run with the same pid would block us.
        try? Command.ip("netns", "del", name)
        try Command.ip("netns", "add", name)
    }

    /// `ip -n NAME arguments...`
    func ip(_ arguments: String...) throws {
        try Command.run(Command.ipPath, ["-n", name] + arguments)
    }

    /// Runs many `ip` commands in one process (`ip -n NAME -batch FILE`).
    func ipBatch(_ commands: [String]) throws {
        let file = try writeBatch(commands)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Command.run(Command.ipPath, ["-n", name, "-batch", file])
    }

    /// Writes an `ip -batch` file; the caller removes it.
    func writeBatch(_ commands: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).batch")
        try commands.joined(separator: "\n").appending("\n").write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Runs `body` on a dedicated thread that has joined this namespace
    /// (setns(CLONE_NEWNET) changes only the calling thread), and hands back its
    /// result. The thread ends afterwards, so no other code ever runs inside, and
    /// the awaiting test blocks none of Swift's cooperative threads meanwhile.
    func inside<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let path = "/run/netns/\(name)"
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result<T, any Error> {
                    let fd = open(path, O_RDONLY | O_CLOEXEC)
                    guard fd >= 0 else { throw NamespaceError(operation: "open \(path)", code: errno) }
                    defer { close(fd) }
                    guard joinNetworkNamespace(fd) == 0 else {
                        throw NamespaceError(operation: "setns \(path)", code: errno)
                    }
                    return try body()
                })
            }
            thread.start()
        }
    }

    fileprivate func delete() {
        try? Command.ip("netns", "del", name)
    }
}

/// setns(2) is a GNU extension Swift's Glibc module does not export, so look it
/// up at run time. CLONE_NEWNET (0x40000000) is kernel ABI.
private func joinNetworkNamespace(_ fd: Int32) -> Int32 {
    typealias SetNS = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns") else {
        errno = ENOSYS
        return -1
    }
    let cloneNewNet: Int32 = 0x4000_0000
    return unsafeBitCast(symbol, to: SetNS.self)(fd, cloneNewNet)
}

struct NamespaceError: Error, CustomStringConvertible {
    var operation: String
    var code: Int32
    var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// Creates a namespace with loopback up, runs `body`, and deletes the namespace
/// whatever happens (its interfaces and routes go with it).
func withNamespace<T>(_ body: (NetworkNamespace) async throws -> T) async throws -> T {
    let namespace = try NetworkNamespace()
    defer { namespace.delete() }
    try namespace.ip("link", "set", "lo", "up")
    return try await body(namespace)
}
