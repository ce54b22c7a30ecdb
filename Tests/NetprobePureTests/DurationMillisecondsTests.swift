import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// The Duration conversions every module uses: fractions kept, dropped or rounded up as each says.
@Suite struct DurationMillisecondsTests {
    @Test(arguments: [
        (Duration.zero, 0.0, 0.0, Int64(0), Int32(0)),
        (.milliseconds(1500), 1500, 1.5, 1500, 1500),
        (.microseconds(1), 0.001, 0.000001, 0, 1),
        (.microseconds(2_999), 2.999, 0.002999, 2, 3),
        (.seconds(3), 3000, 3, 3000, 3000),
        (.milliseconds(-5), -5, -0.005, -5, 0),
        (.seconds(10_000_000), 1e10, 1e7, 10_000_000_000, Int32.max),
    ])
    func conversions(_ duration: Duration, _ ms: Double, _ seconds: Double, _ whole: Int64, _ poll: Int32) {
        #expect(duration.inMilliseconds == ms)
        #expect(duration.inSeconds == seconds)
        #expect(duration.wholeMilliseconds == whole)
        #expect(duration.pollMilliseconds == poll)
    }
}
