import NetprobeWire

/// The one name of a path: the interface traffic leaves through and the address family.
/// nil interface: no route at all; nil family: the system chose the family (the plain
/// check's one path). Used by the check's plan and gates, watch's records and the report.
public struct PathKey: Hashable, Sendable, Comparable {
    public var interface: String?
    public var family: AddressFamily?

    public init(interface: String? = nil, family: AddressFamily? = nil) {
        self.interface = interface
        self.family = family
    }

    /// `wlan0 ipv4`, `wlan0 any` (the system chose the family), `none` (no route at all).
    public var label: String {
        "\(interface ?? "none") \(family?.rawValue ?? "any")"
    }

    public static func < (lhs: PathKey, rhs: PathKey) -> Bool {
        (lhs.interface ?? "", lhs.family?.rawValue ?? "") < (rhs.interface ?? "", rhs.family?.rawValue ?? "")
    }
}
