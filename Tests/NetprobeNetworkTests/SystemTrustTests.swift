import Foundation
@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport
@testable import NetprobeSystem
@testable import NetprobeNetwork
@testable import NetprobeCheck
@testable import NetprobeWatch
import XCTest

/// HTTPS probes trust the system's hashed certificate directory when it has hash links, the
/// bundle otherwise. The untrusted-certificate test (ProbeRunnerTLSTests) runs on whichever
/// this machine has; on a Debian machine with ca-certificates, the directory.
final class SystemTrustTests: XCTestCase {
    func testHashLinkNamesAreEightHexDigitsAndDotZero() {
        XCTAssertTrue(SystemTrust.isHashLink("9d04f354.0"))
        XCTAssertFalse(SystemTrust.isHashLink("9d04f354.1"))  // a second certificate with that hash: .0 is always there too
        XCTAssertFalse(SystemTrust.isHashLink("9D04F354.0"))
        XCTAssertFalse(SystemTrust.isHashLink("ca-certificates.crt"))
        XCTAssertFalse(SystemTrust.isHashLink("9d04f35.0"))
    }

    func testADirectoryWithoutHashLinksIsNotUsed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("np-trust-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/ca-certificates.crt", contents: Data()))
        XCTAssertFalse(SystemTrust.hasHashLinks(directory))
        try FileManager.default.createSymbolicLink(atPath: directory + "/9d04f354.0", withDestinationPath: "ca-certificates.crt")
        XCTAssertTrue(SystemTrust.hasHashLinks(directory))
        XCTAssertFalse(SystemTrust.hasHashLinks(directory + "/missing"))
    }

    func testThisMachinesDirectoryIsUsedWhenItIsHashed() {
        let hashed = ((try? FileManager.default.contentsOfDirectory(atPath: "/etc/ssl/certs")) ?? []).contains { SystemTrust.isHashLink($0) }
        XCTAssertEqual(SystemTrust.hashedDirectory, hashed ? "/etc/ssl/certs" : nil)
    }
}
