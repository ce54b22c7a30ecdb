import Foundation
import NetprobeWire
import NetprobeVerdict
import NetprobeSystem
import NetprobeCheck
import Synchronization
import Testing

/// A kernel whose table dumps are interrupted (NLE_DUMP_INTR: its tables changed during the
/// dump, as when a container starts): the real reader, with interruptions put in front of
/// its real dumps of a namespace's tables.
@Suite("PathReader: interrupted dumps")
struct InterruptedDumpTests {
    final class Kernel: Sendable {
        let interruptions: Atomic<Int>
        let dumps = Atomic<Int>(0)
        init(interruptions: Int) { self.interruptions = Atomic(interruptions) }

        /// A reader whose first `interruptions` dumps fail as the kernel fails them.
        func reader() -> PathReader {
            var reader = PathReader(resolvConfPath: "/nonexistent/resolv.conf")
            let real = reader.dumpTables
            reader.dumpTables = { [self] root throws(NetlinkError) in
                dumps.add(1, ordering: .relaxed)
                if interruptions.subtract(1, ordering: .relaxed).oldValue > 0 {
                    throw NetlinkError(code: -NetlinkError.dumpInterrupted, operation: "rtnl_route_alloc_cache")
                }
                return try real(root)
            }
            return reader
        }
    }

    @Test func aFewInterruptionsAreReadAgain() async throws {
        let kernel = Kernel(interruptions: PathReader.attempts - 1)
        let snapshot = try await withNamespace { ns in try await ns.inside { try kernel.reader().snapshot() } }
        #expect(snapshot.interfaces.map(\.name) == ["lo"])
        #expect(kernel.dumps.load(ordering: .relaxed) == PathReader.attempts)
    }

    /// Interrupted at every attempt: the read fails, bounded, with the kernel's error, which a
    /// check reports as a netlink failure (watch goes on; see the watch loop's tests).
    @Test func interruptedEveryTimeFailsAfterTheLastAttempt() async throws {
        let kernel = Kernel(interruptions: 100)
        // The netlink failure's message, as a check reports it.
        let failure = try await withNamespace { ns in
            try await ns.inside { () -> String? in
                do {
                    _ = try KernelPaths(reader: kernel.reader()).snapshot()
                    return nil
                } catch {
                    guard let failure = error as? CheckError, case .netlink(let message) = failure else { return "not a netlink failure: \(error)" }
                    return message
                }
            }
        }
        #expect(kernel.dumps.load(ordering: .relaxed) == PathReader.attempts)
        let message = try #require(failure, "the read succeeded")
        #expect(message.contains("rtnl_route_alloc_cache"), "\(message)")
    }
}
