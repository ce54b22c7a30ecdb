#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetprobeWire

/// Where a person logs in to a captive portal, from the probes' answers and the Captive
/// Portal API: the URL, and which evidence gave it.
public enum PortalLocator {
    /// Where to log in, from the probes alone (no Captive Portal API); the precedence
    /// of the sources is documented at `locate(_:capport:)`.
    public static func locate(_ evidence: [ProbeEvidence]) -> PortalInfo? {
        locate(evidence, capport: nil)
    }

    /// `location` (a Location header, a link on a page, an API's URL) made absolute against
    /// `base`, the URL it came from; nil unless that is an http(s) URL with a host.
    public static func resolve(_ location: String, against base: String) -> String? {
        let trimmed = location.trimmingWhitespaces()
        guard !trimmed.isEmpty, let baseURL = URL(string: base), let url = URL(string: trimmed, relativeTo: baseURL) else { return nil }
        let absolute = url.absoluteString
        // "http:", "http:///x" and the like resolve to URLs with no host: nothing a person could open.
        // Read as a browser would: portals send sloppy URLs, and this one is only shown.
        guard URLRules.httpHost(absolute, strict: false) != nil else { return nil }
        return absolute
    }

    /// Where the user should log in, from the strongest source that gave a usable
    /// http(s) URL, in this order (the first that applies wins):
    ///
    /// 1. `capport`: the Captive Portal API's `user-portal-url`, when the API says captive;
    /// 2. `wispr`: the WISPr `LoginURL` of a portal page;
    /// 3. `redirect`: the `Location` of a redirected probe (relative ones resolved);
    /// 4. `meta-refresh`: a portal page's `<meta http-equiv="refresh">` target;
    /// 5. `body`: a one-line script redirect on a portal page (`location.href = "..."`);
    /// 6. `dns`: `http://ADDRESS/` for the interception address a hijacked name led to,
    ///    when that address answered HTTP;
    /// 7. `capport` again: a `user-portal-url` from an API that says *not* captive;
    /// 8. `announced`: an `http://` URI the network announced as its Captive Portal URI
    ///    (DHCP option 114, RA option 37: RFC 7710's older meaning, as openNDS's
    ///    `http://status.client`). It is no RFC 8908 API and is never asked as one, and it never
    ///    makes a verdict: only a portal already shown by the probes is offered it.
    /// 9. `remembered`: none of these gave one, but a full check found the portal's login URL
    ///    on this same network before (`NetworkMemory`, watch's): shown until a check finds one
    ///    again, which then replaces it. It never makes a verdict either.
    /// 10. `probe`: none of these gave one, so the page to open is an intercepted probe's own
    ///    `http://` URL (`probePage`). A URL the network gave always wins over it.
    ///
    /// So `url` is nil only when no probe was answered at all (the API alone says captive and
    /// names no page, and every probe was filtered out).
    ///
    /// Within one source, probes count in report order. Pages are read only from probes
    /// whose outcome is portal, or whose name was hijacked. Returns nil when there is
    /// no portal evidence at all (no portal outcome, no hijacked name, API not captive).
    public static func locate(_ evidence: [ProbeEvidence], capport: CapportReport?, remembered: String? = nil) -> PortalInfo? {
        let pages = evidence.filter { $0.outcome == .portal || Classifier.dnsHijack($0) == true }
        let apiURL = capport?.answer?.userPortalURL.flatMap { resolve($0, against: $0) }
        let captive = capport?.answer?.captive == true
        guard !pages.isEmpty || captive else { return nil }

        var info = PortalInfo()
        var wisprProbe: ProbeEvidence?
        for item in pages {
            guard let body = item.observation?.body, let found = WISPrParser.parse(body) else { continue }
            info.wispr = found
            info.locationName = found.locationName
            info.loginURL = found.loginURL.flatMap { resolve($0, against: item.spec.url) }
            wisprProbe = item
            break
        }

        func found(_ url: String, _ source: String, _ item: ProbeEvidence?) -> PortalInfo {
            var result = info
            result.url = url
            result.source = source
            result.probe = item?.spec.name
            result.status = item?.observation?.status
            return result
        }

        if captive, let apiURL { return found(apiURL, "capport", nil) }
        if let url = info.loginURL, let wisprProbe { return found(url, "wispr", wisprProbe) }
        let finders: [(String, (ProbeEvidence) -> String?)] = [
            ("redirect", { $0.observation?.header("location") }),
            ("meta-refresh", { $0.observation.flatMap { MetaRefresh.target(in: $0.body) } }),
            ("body", { $0.observation.flatMap { ScriptRedirect.target(in: $0.body) } }),
            ("dns", { Classifier.dnsHijack($0) == true ? interceptionPage($0) : nil }),
        ]
        for (source, finder) in finders {
            for item in pages {
                // A redirect's Location counts only on an answer judged a portal (not on a 404 or a 5xx).
                if source == "redirect" && item.outcome != .portal { continue }
                guard let raw = finder(item), let url = resolve(raw, against: item.spec.url) else { continue }
                return found(url, source, item)
            }
        }
        if let apiURL { return found(apiURL, "capport", nil) }
        if let announced = capport?.uri, URLRules.httpHost(announced, strict: false) != nil,
           !CapportReport.isHTTPS(announced), announced != CapportReport.unrestrictedURI, !pages.isEmpty {
            var hint = found(announced, "announced", nil)
            let first = pages.first { $0.outcome == .portal } ?? pages.first
            hint.probe = first?.spec.name
            hint.status = first?.observation?.status
            return hint
        }
        if let remembered, URLRules.httpHost(remembered, strict: false) != nil, !pages.isEmpty || captive {
            var hint = found(remembered, PortalInfo.rememberedSource, nil)
            let first = pages.first { $0.outcome == .portal } ?? pages.first
            hint.probe = first?.spec.name
            hint.status = first?.observation?.status
            return hint
        }
        if let page = probePage(pages, evidence: evidence) { return found(page.url, "probe", page.probe) }
        let first = pages.first { $0.outcome == .portal } ?? pages.first
        var unknown = info
        unknown.probe = first?.spec.name
        unknown.status = first?.observation?.status
        return unknown
    }

    /// The page to open when the network named none (the URL, and the probe it comes from): an
    /// intercepted probe's own plain-HTTP URL, which the portal answers in the real page's place
    /// (what Android, GNOME and browsers open). Probes the portal answered come before those known
    /// only by a hijacked name; an intercepted HTTPS probe (its name hijacked, or a proxy's CONNECT
    /// redirected) is offered in its `http://` form, where the portal can show its page; a portal
    /// known only from the Captive Portal API is offered any plain-HTTP probe that was sent. Among
    /// equals the smallest URL wins, so the answer does not depend on which probe landed first.
    static func probePage(_ pages: [ProbeEvidence], evidence: [ProbeEvidence]) -> (url: String, probe: ProbeEvidence)? {
        func plain(_ item: ProbeEvidence) -> Bool {
            !item.spec.isHTTPS && URLRules.httpHost(item.spec.url, strict: false) != nil
        }
        let tiers: [[ProbeEvidence]] = [
            pages.filter { plain($0) && $0.outcome == .portal },
            pages.filter(plain),
            pages.filter(\.spec.isHTTPS),
            pages.isEmpty ? evidence.filter { plain($0) && $0.outcome != .skipped } : [],
        ]
        for candidates in tiers {
            let offered = candidates.compactMap { item in plainForm(item.spec.url).map { (url: $0, probe: item) } }
            if let best = offered.min(by: { ($0.url, $0.probe.spec.name) < ($1.url, $1.probe.spec.name) }) { return best }
        }
        return nil
    }

    /// `url` with its scheme made `http`, when it is a usable http(s) URL.
    static func plainForm(_ url: String) -> String? {
        guard URLRules.httpHost(url, strict: false) != nil else { return nil }
        guard ProbeSpec.isHTTPS(url) else { return url }
        let plain = "http://" + url.dropFirst("https://".count)
        return URLRules.httpHost(plain, strict: false) != nil ? plain : nil
    }

    /// `http://ADDRESS/` when a hijacked name's address answered HTTP: the portal's own web server.
    static func interceptionPage(_ evidence: ProbeEvidence) -> String? {
        guard let observation = evidence.observation, observation.status != nil,
              let address = observation.remoteAddress, AddressClass.of(address) != nil else { return nil }
        return "http://" + (address.contains(":") ? "[\(address)]" : address) + "/"
    }
}
