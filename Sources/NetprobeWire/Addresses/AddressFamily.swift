/// The two IP families a path, a route or a probe can be limited to (`-4`, `-6`).
public enum AddressFamily: String, Sendable, CaseIterable {
    case ipv4
    case ipv6
}
