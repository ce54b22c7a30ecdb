#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire

/// What watch learnt of each network it has been on (`NetworkIdentity.id`), so that a visit
/// does not start from nothing: when a full check last proved the network's state and what it
/// was, its portal's login URL and API, whether it answers a DHCPINFORM, and which operators'
/// probes it intercepts. Bounded: at most `maxNetworks`, the one seen least recently forgotten
/// first (the file's writer also drops the oldest until it fits `NetworkMemoryFile.maxBytes`).
///
/// Nothing here ever decides a verdict. It only chooses what a check sends (a lean re-check on
/// a network proven open, no DHCPINFORM to a network that answered or ignored one) and fills a
/// login URL the check itself did not find, marked as remembered.
public struct NetworkMemory: Sendable, Equatable {
    public static let maxNetworks = 64
    /// How many full checks in a row must have found a network online before re-checks on it
    /// may be lean: one could be a portal's good minute.
    public static let openStreakForLean = 2
    /// How long a full check's proof lets re-checks be lean: after it, the next re-check is
    /// full again (a lean re-check proves only that two operators still answer).
    public static let leanWindow: Duration = .seconds(3600)

    /// What one network taught.
    public struct Entry: Sendable, Equatable {
        /// `NetworkIdentity.id`: 12 lower-case hex digits.
        public var id: String
        /// `NetworkIdentity.name` when it was last seen, for a person reading the file.
        public var name: String?
        /// The start of the last check that saw the network (any check, lean or full).
        public var lastSeen: Date
        /// The start of the last full check on it, and what that check concluded.
        public var lastProven: Date?
        public var verdict: Verdict?
        public var reason: Reason?
        /// Full checks in a row that found it online (0 after any other full verdict).
        public var openStreak: Int
        /// The portal's login URL, as a full check found it on the network (never a probe's
        /// own URL, never one remembered).
        public var portalURL: String?
        /// The network's Captive Portal API URI (announced by the lease or learnt by DHCPINFORM).
        public var portalAPI: String?
        /// Whether the network's DHCP server answered a DHCPINFORM: nil never asked, false no
        /// answer that could be believed was seen.
        public var informAnswers: Bool?
        /// The option 114 URI its DHCPINFORM answer gave, when it gave one.
        public var informPortalAPI: String?
        /// The operators whose probes its last portal verdict saw intercepted, in probe order.
        public var intercepted: [String]

        public init(id: String, name: String? = nil, lastSeen: Date, lastProven: Date? = nil, verdict: Verdict? = nil,
                    reason: Reason? = nil, openStreak: Int = 0, portalURL: String? = nil, portalAPI: String? = nil,
                    informAnswers: Bool? = nil, informPortalAPI: String? = nil, intercepted: [String] = []) {
            self.id = id
            self.name = name
            self.lastSeen = lastSeen
            self.lastProven = lastProven
            self.verdict = verdict
            self.reason = reason
            self.openStreak = openStreak
            self.portalURL = portalURL
            self.portalAPI = portalAPI
            self.informAnswers = informAnswers
            self.informPortalAPI = informPortalAPI
            self.intercepted = intercepted
        }
    }

    /// Oldest `lastSeen` first.
    public private(set) var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        var kept: [Entry] = []
        for entry in entries.sorted(by: { $0.lastSeen < $1.lastSeen }) {
            kept.removeAll { $0.id == entry.id }
            kept.append(entry)
        }
        self.entries = Array(kept.suffix(Self.maxNetworks))
    }

    public subscript(id: String) -> Entry? {
        entries.last { $0.id == id }
    }

    /// Whether a re-check on this network may be lean at `now`: its last full checks proved it
    /// open, the last of them within `leanWindow`.
    public func provenOpen(_ id: String, at now: Date) -> Bool {
        guard let entry = self[id], entry.verdict == .online, entry.openStreak >= Self.openStreakForLean,
              let proven = entry.lastProven else { return false }
        let age = now.timeIntervalSince(proven)
        return age >= 0 && age <= Double(Self.leanWindow.components.seconds)
    }

    /// Notes a check's path on its network. A lean check only marks the network seen: it
    /// proves no verdict of its own.
    public mutating func learn(_ path: PathReport, full: Bool, at start: Date) {
        guard let network = path.network, let id = network.id else { return }
        var entry = self[id] ?? Entry(id: id, lastSeen: start)
        entry.name = network.name
        entry.lastSeen = max(entry.lastSeen, start)
        if full {
            let conclusion = path.conclusion
            entry.lastProven = start
            entry.verdict = conclusion.verdict
            entry.reason = conclusion.reason
            entry.openStreak = conclusion.verdict == .online ? entry.openStreak + 1 : 0
            if conclusion.verdict == .portal {
                if let portal = conclusion.portal, let url = portal.url, Self.foundOnNetwork(portal.source) {
                    entry.portalURL = url
                }
                entry.intercepted = Self.operators(path.probes.filter { $0.outcome == .portal })
            } else if conclusion.verdict == .online {
                // Logged in, or the portal is gone: its page is no longer where this network sends anyone.
                entry.portalURL = nil
                entry.intercepted = []
            }
            if let api = path.capport?.uri, path.capport?.source != DHCPInformReport.source { entry.portalAPI = api }
        }
        if let inform = path.inform, !inform.remembered {
            switch inform.state {
            case .answered:
                entry.informAnswers = true
                entry.informPortalAPI = inform.captivePortal
            case .noAnswer:
                entry.informAnswers = false
                entry.informPortalAPI = nil
            default:
                break
            }
        }
        entries.removeAll { $0.id == id }
        entries.append(entry)
        if entries.count > Self.maxNetworks { entries.removeFirst(entries.count - Self.maxNetworks) }
    }

    /// Forgets networks until at most `count` remain, the least recently seen first.
    public mutating func keepNewest(_ count: Int) {
        if entries.count > count { entries.removeFirst(entries.count - max(0, count)) }
    }

    /// A URL the network itself gave (a redirect, a page, the API), not a probe's own URL that
    /// a portal answered without naming a page, and not one remembered from before.
    static func foundOnNetwork(_ source: String?) -> Bool {
        guard let source else { return false }
        return source != "probe" && source != PortalInfo.rememberedSource
    }

    static func operators(_ probes: [ProbeEvidence]) -> [String] {
        var names: [String] = []
        for probe in probes where !names.contains(probe.spec.operatorName) { names.append(probe.spec.operatorName) }
        return names
    }
}

extension PortalInfo {
    /// `source` of a login URL that this check did not find but a full check on the same
    /// network did, earlier (`NetworkMemory`).
    public static let rememberedSource = "remembered"
}
