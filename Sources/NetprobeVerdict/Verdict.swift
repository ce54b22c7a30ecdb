import NetprobeWire
/// The three answers netprobe gives, ordered: the better way out wins when paths disagree.
public enum Verdict: String, Sendable, Comparable {
    case online, portal, offline

    /// online > portal > offline: the better way out wins when paths disagree.
    private var rank: Int {
        switch self {
        case .online: return 2
        case .portal: return 1
        case .offline: return 0
        }
    }

    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.rank < rhs.rank }

    /// The process's exit status for this verdict: a stable interface, scripts and units test it.
    public var exitCode: Int32 {
        switch self {
        case .online: return 0
        case .offline: return 1
        case .portal: return 2
        }
    }
}
