#if canImport(Glibc)
import Glibc
#endif
import CSystemd
import NetprobeWire
import NetprobeLinkState

/// Why libsystemd could not be loaded (`netprobe_systemd_load`, once, on first use); nil when it
/// was. Without it no owner is asked and the files are read instead.
let systemdLoadFailure: String? = {
    var message = [CChar](repeating: 0, count: 256)
    guard netprobe_systemd_load(&message, message.count) != 0 else { return nil }
    return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}()

/// One connection to the system bus, used by one thread at a time (`OwnerBus` holds it under its
/// lock). Every call never starts a daemon by bus activation.
final class SystemBus {
    private let bus: OpaquePointer

    private init(_ bus: OpaquePointer) {
        self.bus = bus
    }

    deinit {
        netprobe_bus_close(bus)
    }

    enum Opening {
        case opened(SystemBus)
        /// The broker took the connection and did not finish authentication and Hello in time.
        case timedOut
        /// No libsystemd, no broker at `address`, or it refused.
        case unreachable
    }

    /// Connected, authenticated and greeted (Hello answered) within `limit`, or given up.
    /// `address`: a D-Bus address; nil: `DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket.
    static func connect(address: String?, within limit: Duration) -> Opening {
        guard systemdLoadFailure == nil else { return .unreachable }
        var bus: OpaquePointer?
        let status = netprobe_bus_connect_system(address, UInt64(max(1, limit.inMilliseconds * 1000)), &bus)
        if status == -Int32(ETIMEDOUT) { return .timedOut }
        guard status >= 0, let bus else { return .unreachable }
        return .opened(SystemBus(bus))
    }

    var isOpen: Bool { netprobe_bus_is_open(bus) != 0 }

    enum Answer {
        case values([BusValue])
        /// No such service, object or property, or a reply that could not be read.
        case failed
        /// No answer within the limit.
        case timedOut
        /// The broker closed the connection: a new one is needed.
        case broken
    }

    /// The reply of one method call, read whole, waited for at most `limit`.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
              string: String? = nil, int32: Int32? = nil, within limit: Duration) -> Answer {
        var reply: OpaquePointer?
        var error = [CChar](repeating: 0, count: 256)
        let micros = UInt64(max(1, limit.inMilliseconds * 1000))
        let status = netprobe_bus_call(bus, destination, path, interface, member, string, int32 == nil ? 0 : 1,
                                       int32 ?? 0, micros, &reply, &error, error.count)
        if status == -Int32(ETIMEDOUT) { return .timedOut }
        guard status >= 0, let reply else { return isOpen ? .failed : .broken }
        defer { netprobe_bus_message_unref(reply) }
        return BusReader(message: reply).values().map(Answer.values) ?? .failed
    }
}

/// Reads a reply into `BusValue`s, container by container. Bounded: D-Bus allows 64 levels of
/// nesting, and the walk stops at 32 (no owner's answer is half as deep).
private struct BusReader {
    let message: OpaquePointer
    static let depthLimit = 32

    func values(depth: Int = 0) -> [BusValue]? {
        var values: [BusValue] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            let peeked = netprobe_bus_message_peek(message, &type, &contents)
            guard peeked >= 0 else { return nil }
            if peeked == 0 { return values }
            guard let value = self.value(type: UInt8(bitPattern: type), contents: contents, depth: depth) else { return nil }
            values.append(value)
        }
    }

    func value(type: UInt8, contents: UnsafePointer<CChar>?, depth: Int) -> BusValue? {
        switch type {
        case UInt8(ascii: "a"), UInt8(ascii: "r"), UInt8(ascii: "e"), UInt8(ascii: "v"):
            guard depth < Self.depthLimit, let contents else { return nil }
            if type == UInt8(ascii: "a"), contents.pointee == CChar(UInt8(ascii: "y")), contents[1] == 0 {
                var bytes: UnsafeRawPointer?
                var size = 0
                guard netprobe_bus_message_read_bytes(message, &bytes, &size) >= 0 else { return nil }
                guard let bytes, size > 0 else { return .bytes([]) }
                return .bytes(Array(UnsafeRawBufferPointer(start: bytes, count: size)))
            }
            guard netprobe_bus_message_enter(message, CChar(bitPattern: type), contents) >= 0,
                  let inner = values(depth: depth + 1), netprobe_bus_message_exit(message) >= 0 else { return nil }
            switch type {
            case UInt8(ascii: "a"): return .array(inner)
            case UInt8(ascii: "r"): return .structure(inner)
            case UInt8(ascii: "v"): return inner.first.map(BusValue.variant)
            default: return inner.count == 2 ? .entry(inner[0], inner[1]) : nil
            }
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var text: UnsafePointer<CChar>?
            guard netprobe_bus_message_read_basic(message, CChar(bitPattern: type), &text) >= 0, let text else { return nil }
            return .string(String(cString: text))
        case UInt8(ascii: "b"):
            var flag: Int32 = 0
            guard netprobe_bus_message_read_basic(message, CChar(bitPattern: type), &flag) >= 0 else { return nil }
            return .boolean(flag != 0)
        case UInt8(ascii: "d"):
            var number = 0.0
            guard netprobe_bus_message_read_basic(message, CChar(bitPattern: type), &number) >= 0 else { return nil }
            return .double(number)
        case UInt8(ascii: "y"):
            var byte: UInt8 = 0
            guard netprobe_bus_message_read_basic(message, CChar(bitPattern: type), &byte) >= 0 else { return nil }
            return .integer(Int64(byte))
        case UInt8(ascii: "n"), UInt8(ascii: "q"):
            var half: UInt16 = 0
            guard netprobe_bus_message_read_basic(message, CChar(bitPattern: type), &half) >= 0 else { return nil }
            return .integer(type == UInt8(ascii: "n") ? Int64(Int16(bitPattern: half)) : Int64(half))
        case UInt8(ascii: "i"), UInt8(ascii: "u"):
            var word: UInt32 = 0
            guard netprobe_bus_message_read_basic(message, CChar(bitPattern: type), &word) >= 0 else { return nil }
            return .integer(type == UInt8(ascii: "u") ? Int64(word) : Int64(Int32(bitPattern: word)))
        case UInt8(ascii: "x"), UInt8(ascii: "t"):
            var wide: UInt64 = 0
            guard netprobe_bus_message_read_basic(message, CChar(bitPattern: type), &wide) >= 0 else { return nil }
            return .integer(Int64(bitPattern: wide))
        default:
            return nil
        }
    }
}
