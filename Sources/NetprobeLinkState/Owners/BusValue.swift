import NetprobeWire

/// One value of a D-Bus reply, as the daemon that configured a link sent it (read by
/// `SystemBus` in NetprobeSystem). The reply's bytes are sd-bus's to check; what arrives here is
/// typed, and the readers below (`NetworkManagerAnswer`, `ResolvedAnswer`) take from it only
/// what they expect, where they expect it.
public indirect enum BusValue: Sendable, Equatable {
    /// s, o, g
    case string(String)
    /// y, n, q, i, u, x (t as its bit pattern)
    case integer(Int64)
    case boolean(Bool)
    case double(Double)
    /// ay
    case bytes([UInt8])
    case array([BusValue])
    case structure([BusValue])
    /// One entry of a{..}
    case entry(BusValue, BusValue)
    case variant(BusValue)

    /// The value of `key` in an a{sv} (or a{ss}), the variant opened.
    public subscript(key: String) -> BusValue? {
        guard case .array(let entries) = self else { return nil }
        for case .entry(.string(let name), let value) in entries where name == key { return value.opened }
        return nil
    }

    /// A variant's content; any other value as it is.
    public var opened: BusValue {
        if case .variant(let inner) = self { return inner.opened }
        return self
    }

    public var string: String? {
        if case .string(let text) = opened { return text }
        return nil
    }

    public var integer: Int64? {
        if case .integer(let value) = opened { return value }
        return nil
    }

    public var elements: [BusValue] {
        switch opened {
        case .array(let values), .structure(let values): return values
        default: return []
        }
    }
}
