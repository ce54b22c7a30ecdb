import Foundation
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import Testing

/// --ca-bundle is checked on an opened descriptor: only a non-empty regular file of bounded
/// size passes, and a FIFO is refused without waiting for a writer.
@Suite struct CABundleFileTests {
    private func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cabundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aRegularFileIsAccepted() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("ca.pem").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("-----BEGIN CERTIFICATE-----\n".utf8)))
        #expect(CABundleFile.problem(file) == nil)
    }

    @Test func filesThatAreNotCABundlesAreRefused() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let empty = dir.appendingPathComponent("empty.pem").path
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        let huge = dir.appendingPathComponent("huge.pem").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, off_t(CABundleFile.maxBytes + 1)) == 0)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(CABundleFile.problem(fifo) == "a pipe, not a file")
        #expect(clock.now - started < .seconds(1), "a FIFO must not block the check")
        #expect(CABundleFile.problem(dir.path) == "a directory, not a file")
        #expect(CABundleFile.problem("/dev/null") == "a device, not a file")
        #expect(CABundleFile.problem(empty) == "empty: no certificates")
        #expect(CABundleFile.problem(huge)?.hasPrefix("larger than") == true)
        #expect(CABundleFile.problem(dir.appendingPathComponent("missing").path)?.hasPrefix("cannot open") == true)
    }
}
