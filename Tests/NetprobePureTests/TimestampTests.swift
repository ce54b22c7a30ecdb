import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import Testing

@Test(arguments: [
    (0.0, "1970-01-01T00:00:00.000Z"),
    (951_782_400.5, "2000-02-29T00:00:00.500Z"),
    (1_795_348_945.8304, "2026-11-22T12:02:25.830Z"),
    (4_102_444_799.999, "2099-12-31T23:59:59.999Z"),
    (-1.0, "1969-12-31T23:59:59.000Z"),
])
func timestampsAreRFC3339UTC(seconds: Double, expected: String) {
    #expect(Timestamp.iso8601(Date(timeIntervalSince1970: seconds)) == expected)
    #expect(Timestamp.iso8601(Date(timeIntervalSince1970: seconds), fractional: false) == String(expected.dropLast(5)) + "Z")
}
