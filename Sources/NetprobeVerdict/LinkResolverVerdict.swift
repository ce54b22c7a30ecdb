import NetprobeWire
extension VerdictEngine {
    /// The answer when the configured resolvers failed and the probes were sent again with
    /// addresses from the link's own resolvers (`configured` is the first round's conclusion,
    /// `link` the second's). A portal met that way is the portal, with its login URL; probes
    /// that validate that way mean the network works and this machine's DNS setting does not
    /// (offline, `resolver-blocked`: every program on it fails). Anything else leaves the
    /// first answer standing (nil).
    public static func throughLinkResolvers(configured: Conclusion, link: Conclusion) -> Conclusion? {
        guard configured.verdict == .offline, configured.reason == .dnsFailed else { return nil }
        switch link.verdict {
        case .portal:
            return link
        case .online:
            return Conclusion(verdict: .offline, reason: .resolverBlocked, successOperators: link.successOperators,
                              portalOperators: link.portalOperators, quorum: link.quorum, dnsHijack: link.dnsHijack,
                              proxy: link.proxy)
        case .offline:
            return nil
        }
    }
}
