import Foundation
@testable import NetprobeLink
import Testing

/// The modification time that DHCP lease discovery dates lease files by.
@Suite("bounded file: modification times")
struct BoundedFileTests {
    private static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("np-link-dir-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test func modificationTimeIsTheFilesOwnToTheNanosecond() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = "\(directory)/lease"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        // 2026-11-24 18:00:00.25 UTC, set with utimensat so the test knows the exact value.
        var times = [timespec(tv_sec: 1_795_543_200, tv_nsec: 250_000_000),
                     timespec(tv_sec: 1_795_543_200, tv_nsec: 250_000_000)]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        #expect(BoundedFile.modificationTime(file) == 1_795_543_200.25)
        #expect(BoundedFile.modificationTime("\(directory)/absent") == nil)
    }

    @Test func modificationTimeFollowsASymbolicLinkToWhatIsRead() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = "\(directory)/target", link = "\(directory)/link"
        #expect(FileManager.default.createFile(atPath: target, contents: nil))
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, target, &times, 0) == 0)
        #expect(symlink(target, link) == 0)
        #expect(BoundedFile.modificationTime(link) == 1_000_000_000)
    }
}
