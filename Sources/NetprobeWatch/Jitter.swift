#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

/// Spreads the re-check delays (interval and back-off) by up to ±`fraction`, so machines that lost
/// the network together do not all probe again at the same instant. Tests turn it off, or seed it.
public struct Jitter {
    public static let standardFraction = 0.1
    public let fraction: Double
    private var generator: any RandomNumberGenerator

    public init(fraction: Double = Jitter.standardFraction, generator: any RandomNumberGenerator = SystemRandomNumberGenerator()) {
        self.fraction = fraction
        self.generator = generator
    }

    public static var off: Jitter { Jitter(fraction: 0) }

    public mutating func spread(_ delay: Duration) -> Duration {
        guard fraction > 0 else { return delay }
        let factor = 1 + Double.random(in: -fraction...fraction, using: &generator)
        return .nanoseconds(Int64((Double(delay.inNanoseconds) * factor).rounded()))
    }
}

/// A small seedable generator (SplitMix64): the same seed gives the same delays.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Duration {
    var inNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
