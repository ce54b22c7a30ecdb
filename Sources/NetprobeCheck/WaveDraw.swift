/// How a check picks its first wave among the `FirstWaves` a probe set allows: given their
/// number, it answers one below it. The commands draw from the system's random source
/// (getrandom), anew for every check and path, so nothing outside the process (a portal, the
/// network, a test harness around the binary) can know or set which hosts go first; tests of
/// the check loop inject the pick.
public struct WaveDraw: Sendable {
    public let pick: @Sendable (_ count: Int) -> Int

    public init(pick: @escaping @Sendable (_ count: Int) -> Int) {
        self.pick = pick
    }

    public static let random = WaveDraw { count in
        var source = SystemRandomNumberGenerator()
        return Int.random(in: 0..<count, using: &source)
    }

    /// Always the wave numbered `rank` (modulo their number).
    public static func fixed(_ rank: Int) -> WaveDraw {
        WaveDraw { _ in rank }
    }
}
