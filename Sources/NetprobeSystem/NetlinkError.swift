import CNetlink
import NetprobeWire
import NetprobeVerdict

/// A libnl failure: the negative `NLE_*` code libnl returned (stored as its
/// positive value) and what we were doing when it happened.
public struct NetlinkError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The `NLE_*` code (positive, e.g. `NLE_NOMEM` = 5).
    public var code: Int32
    /// What failed, e.g. "nl_connect" or "rtnl_link_alloc_cache".
    public var operation: String

    public init(code: Int32, operation: String) {
        // libnl returns codes negated; normalise so callers can compare with NLE_*.
        self.code = code < 0 ? -code : code
        self.operation = operation
    }

    public var description: String {
        "\(operation): \(String(cString: nl_geterror(code)))"
    }
}

extension NetlinkError {
    /// NLE_DUMP_INTR: the kernel's tables changed during a dump, whose answer is inconsistent.
    public static let dumpInterrupted = Int32(NLE_DUMP_INTR)

    /// Turns a libnl return value into a thrown error when it is negative.
    static func check(_ result: Int32, _ operation: String) throws(NetlinkError) {
        if result < 0 { throw NetlinkError(code: result, operation: operation) }
    }
}
