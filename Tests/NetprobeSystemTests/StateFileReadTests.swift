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

/// What CheckedFile reads for state files and what it refuses, and the modification time that DHCP lease
/// discovery dates lease files by. The time limit only catches a FIFO that blocks: generous,
/// since under ThreadSanitizer the suite can wait minutes for a thread while the namespace
/// tests hold the pool.
@Suite("bounded file", .timeLimit(.minutes(5)))
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
        #expect(CheckedFile.modificationTime(file) == 1_795_543_200.25)
        #expect(CheckedFile.modificationTime("\(directory)/absent") == nil)
    }

    @Test func modificationTimeFollowsASymbolicLinkToWhatIsRead() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = "\(directory)/target", link = "\(directory)/link"
        #expect(FileManager.default.createFile(atPath: target, contents: nil))
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, target, &times, 0) == 0)
        #expect(symlink(target, link) == 0)
        #expect(CheckedFile.modificationTime(link) == 1_000_000_000)
    }

    @Test func aSymbolicLinkIsReadOnlyWhenFollowingIsAllowed() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = "\(directory)/target", link = "\(directory)/link"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("x=1\n".utf8)))
        #expect(symlink(target, link) == 0)
        #expect(CheckedFile.bytes(link) == Array("x=1\n".utf8))
        #expect(CheckedFile.bytes(link, followSymlinks: false) == nil)
        #expect(CheckedFile.bytes(target, followSymlinks: false) == Array("x=1\n".utf8))
    }

    /// A FIFO with no writer would block a plain open(2) forever: it must come back at once.
    @Test func onlyRegularFilesAreReadAndNothingBlocks() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = "\(directory)/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, directory, "/dev/zero", "/dev/null"] {
            #expect(CheckedFile.bytes(path) == nil, "\(path)")
            #expect(CheckedFile.bytes(path, followSymlinks: false) == nil, "\(path)")
        }
    }
}
