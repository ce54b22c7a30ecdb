import NetprobeWire
import NetprobeVerdict
import Testing

/// The first waves a check draws from: none a portal can let through by allow-listing a quorum
/// of operators, and each as likely as any other, so one allow-listed wave fools one draw in
/// their number.
@Suite struct FirstWavesTests {
    static let specs = DefaultProbes.config().probes
    static let waves = FirstWaves(specs, quorum: 2)
    static let all = (0..<waves.count).map { waves.wave($0) }

    static func host(_ spec: ProbeSpec) -> String { URLSyntax.hostAndPort(spec.url)!.host }

    /// Whether a portal letting `hosts` through (on :80 and :443) answers every probe of `wave`.
    static func fools(_ hosts: Set<String>, _ wave: [ProbeSpec]) -> Bool {
        wave.allSatisfy { hosts.contains(host($0)) }
    }

    @Test func everyWaveIsTwoPlainHTTPOperatorsAndHTTPSOfAThird() {
        #expect(Self.waves.count == 22)
        #expect(Set(Self.all.map { $0.map(\.name) }).count == Self.waves.count, "every rank a different wave")
        for wave in Self.all {
            let http = wave.filter { !$0.isHTTPS }, https = wave.filter(\.isHTTPS)
            #expect(http.count == 2 && https.count == 1, "\(wave.map(\.name))")
            #expect(Set(wave.map(\.operatorName)).count == 3, "\(wave.map(\.name))")
        }
    }

    /// Every probe of the set goes first in some draw: no host is one a portal can count on
    /// never being asked first, nor on always being asked.
    @Test func everyProbeIsInSomeWaveAndNoneInAll() {
        for spec in Self.specs {
            let within = Self.all.filter { $0.contains { $0.name == spec.name } }.count
            #expect(within > 0 && within < Self.waves.count, "\(spec.name): \(within)")
        }
    }

    /// Any two operators' hosts let through: every wave still asks a third operator.
    @Test func noWaveIsLetThroughByTwoOperatorsHosts() {
        let operators = Array(Set(Self.specs.map(\.operatorName))).sorted()
        for first in operators.indices {
            for second in operators.indices where second > first {
                let hosts = Set(Self.specs.filter { [operators[first], operators[second]].contains($0.operatorName) }.map(Self.host))
                let fooled = Self.all.filter { Self.fools(hosts, $0) }
                #expect(fooled.isEmpty, "\(operators[first]), \(operators[second]): \(fooled.map { $0.map(\.name) })")
            }
        }
    }

    /// Exactly the hosts of one wave let through: that wave alone is fooled, one draw in 22,
    /// below one check in 20.
    @Test func oneAllowListedWaveFoolsOneDrawInItsNumber() {
        for wave in Self.all {
            let fooled = Self.all.filter { Self.fools(Set(wave.map(Self.host)), $0) }
            #expect(fooled.count == 1, "\(wave.map(\.name)) fools \(fooled.map { $0.map(\.name) })")
            #expect(fooled.count * 20 <= Self.waves.count)
        }
    }

    /// The pick is the draw's: asked with the number of waves, the wave it names is the one sent.
    @Test func theDrawPicksTheWave() {
        for rank in [0, 7, 21] {
            var asked: Int?
            let first = WavePlan.firstWave(Self.specs, quorum: 2) { count in
                asked = count
                return rank
            }
            #expect(asked == 22)
            #expect(first.map(\.name) == Self.specs.filter { spec in Self.waves.wave(rank).contains { $0.name == spec.name } }.map(\.name))
        }
    }

    @Test func smallSetsAreSentWhole() {
        let two = Array(Self.specs.prefix(2))
        #expect(WavePlan.firstWave(two, quorum: 2) { _ in Issue.record("one wave: nothing to draw"); return 0 }.map(\.name)
                == ["apple", "google"])
        // A quorum of every plain-HTTP operator: HTTPS of yet another one (Cloudflare's) goes with them.
        let five = FirstWaves(Self.specs, quorum: 5)
        #expect(five.count == 1)
        #expect(five.wave(0).filter { !$0.isHTTPS }.count == 5)
        #expect(five.wave(0).filter(\.isHTTPS).map(\.name) == ["cloudflare-https"])
        // No HTTPS probe of another operator: any HTTPS probe goes with them.
        let noCloudflare = FirstWaves(Self.specs.filter { $0.name != "cloudflare-https" }, quorum: 5)
        #expect(noCloudflare.count == 2)
        #expect((0..<2).allSatisfy { noCloudflare.wave($0).filter(\.isHTTPS).count == 1 })
        // No HTTPS probe: plain HTTP alone, to one operator more than the quorum, so that two
        // operators' hosts let through never make a wave.
        let plain = FirstWaves(Self.specs.filter { !$0.isHTTPS }, quorum: 2)
        #expect(plain.count == 10)
        #expect((0..<10).allSatisfy { Set(plain.wave($0).map(\.operatorName)).count == 3 })
    }

    /// Several probes of one operator: each is a different wave, one at most per operator.
    @Test func anOperatorsProbesAreEachAWave() {
        var specs = Self.specs
        specs.append(ProbeSpec(name: "apple-www", url: "http://www.apple.com/library/test/success.html", operatorName: "apple",
                               expect: Expectation(statuses: [200])))
        let waves = FirstWaves(specs, quorum: 2)
        #expect(waves.count == 22 + 7)  // apple-www wherever apple's plain HTTP goes: 3 with google-https, 4 with cloudflare's
        let all = (0..<waves.count).map { waves.wave($0) }
        #expect(Set(all.map { $0.map(\.name) }).count == waves.count)
        #expect(all.allSatisfy { Set($0.map(\.operatorName)).count == $0.count })
    }

    /// The largest set the configuration allows, a quorum of half its operators: counted and
    /// picked without listing them, every pick a quorum of distinct operators.
    @Test func aLargeSetIsDrawnWithoutListing() {
        let specs = (0..<64).map { index in
            ProbeSpec(name: "p\(index)", url: index % 8 == 0 ? "https://h\(index).test/" : "http://h\(index).test/",
                      operatorName: "op\(index)", expect: Expectation(statuses: [204]))
        }
        let waves = FirstWaves(specs, quorum: 28)
        #expect(waves.count > 1_000_000)
        for rank in [0, 1, waves.count / 2, waves.count - 1] {
            let wave = waves.wave(rank)
            #expect(wave.filter { !$0.isHTTPS }.count == 28 && wave.filter(\.isHTTPS).count == 1)
            #expect(Set(wave.map(\.operatorName)).count == 29)
        }
    }
}
