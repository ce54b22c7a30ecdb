@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeSystem
@testable import NetprobeCheck
import Testing

/// The check gathers the fault's evidence after the round: the neighbour table is read only
/// for an offline path whose gate let probes through, and its gateways are matched to entries.
@Suite struct FaultFinderTests {
    final class Neighbours: PathSource {
        let current: PathSnapshot
        let entries: [NeighbourTable.Entry]
        private(set) var reads = 0
        init(_ current: PathSnapshot, _ entries: [NeighbourTable.Entry]) {
            self.current = current
            self.entries = entries
        }
        func snapshot() throws(CheckError) -> PathSnapshot { current }
        func neighbours() -> [NeighbourTable.Entry] {
            reads += 1
            return entries
        }
    }

    static func entry(_ address: String, _ state: NeighbourState) -> NeighbourTable.Entry {
        NeighbourTable.Entry(interfaceIndex: 2, address: IPAddressText.address(address) ?? [], state: state)
    }

    static func check(_ snapshot: PathSnapshot, _ entries: [NeighbourTable.Entry], families: Set<AddressFamily> = [.ipv4],
                      answer: ScriptedRunner.Answer?) throws -> (Report, Int) {
        let source = Neighbours(snapshot, entries)
        let runner = ScriptedRunner { _, _ in answer }
        let report = try Checker(source: source, makeRunner: { runner }).run(Kit.options(timeout: 0.3, families: families))
        return (report, source.reads)
    }

    @Test func aSilentGatewayIsTheFault() throws {
        let (report, reads) = try Self.check(Kit.dualStack, [Self.entry("198.51.100.1", .failed)], answer: nil)
        #expect(report.verdict == .offline && reads == 1)
        #expect(report.fault?.fault == .gateway)
        #expect(report.fault?.summary == "the router 198.51.100.1 does not answer")
        #expect(report.paths.allSatisfy { $0.fault?.fault == .gateway })
    }

    @Test func anAnsweringIPv6GatewayWithNamesFailingIsDNS() throws {
        let (report, _) = try Self.check(Kit.dualStack, [Self.entry("2001:db8::1", .reachable)], families: [.ipv6],
                                         answer: ScriptedRunner.Answer(at: .milliseconds(5), status: nil, error: .dns))
        #expect(report.reason == .dnsFailed)
        #expect(report.fault?.fault == .dns)
        #expect(report.fault?.detail.contains("198.51.100.1") == true)
    }

    @Test func theGatesAnswerReadsNoNeighbours() throws {
        let (report, reads) = try Self.check(Kit.noRoute, [Self.entry("198.51.100.1", .failed)], answer: nil)
        #expect(report.reason == .noDefaultRoute && reads == 0)
        #expect(report.fault?.fault == .route)
    }

    /// An online answer reads the table once, for the network's gateway (`NetworkFinder`), never for a fault.
    @Test func anOnlineAnswerNamesNoFault() throws {
        let (report, reads) = try Self.check(Kit.dualStack, [Self.entry("198.51.100.1", .failed)], answer: Kit.ok(5))
        #expect(report.verdict == .online && reads == 1 && report.fault == nil)
    }
}
