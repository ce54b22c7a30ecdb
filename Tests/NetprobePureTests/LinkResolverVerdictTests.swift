import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// The answer when the configured resolvers failed and the probes went again through the
/// link's own: a table over both rounds' conclusions.
@Suite struct LinkResolverVerdictTests {
    static let dnsFailed = Conclusion(verdict: .offline, reason: .dnsFailed, quorum: 2)
    static let portal = Conclusion(verdict: .portal, reason: .httpRedirect, portal: PortalInfo(url: "http://login.example/"),
                                   portalOperators: 3, quorum: 2)
    static let online = Conclusion(verdict: .online, reason: .probesValidated, successOperators: 5, quorum: 2)
    static let offline = Conclusion(verdict: .offline, reason: .timeout, quorum: 2)

    @Test func aPortalMetThroughTheLinksResolversIsThePortal() {
        #expect(VerdictEngine.throughLinkResolvers(configured: Self.dnsFailed, link: Self.portal) == Self.portal)
    }

    @Test func probesThatValidateThatWayMeanTheResolverIsBlocked() {
        let answer = VerdictEngine.throughLinkResolvers(configured: Self.dnsFailed, link: Self.online)
        #expect(answer?.verdict == .offline && answer?.reason == .resolverBlocked && answer?.successOperators == 5)
        #expect(answer?.portal == nil && answer?.isFinal == true)
    }

    @Test func anythingElseLeavesTheFirstAnswer() {
        #expect(VerdictEngine.throughLinkResolvers(configured: Self.dnsFailed, link: Self.offline) == nil)
        // Only a DNS failure is the configured resolvers' to blame.
        #expect(VerdictEngine.throughLinkResolvers(configured: Self.offline, link: Self.online) == nil)
        #expect(VerdictEngine.throughLinkResolvers(configured: Self.online, link: Self.portal) == nil)
    }
}
