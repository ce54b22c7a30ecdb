import Foundation
@testable import NetprobeLink
import Testing

/// The directory listing and modification time that DHCP lease discovery reads through.
@Suite("bounded file: directories and modification times")
struct BoundedFileTests {
    private static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("np-link-dir-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test func listsEveryNameButDotAndDotDot() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let names = ["dhclient.eth0.leases", ".hidden", "internal-1234-eth0.lease", "naïve name", "sub"]
        for name in names.dropLast() {
            #expect(FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data("x".utf8)))
        }
        try FileManager.default.createDirectory(atPath: "\(directory)/sub", withIntermediateDirectories: false)
        #expect(BoundedFile.names(inDirectory: directory).sorted() == names.sorted())
    }

    @Test func stopsAtTheLimit() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for index in 0..<10 {
            #expect(FileManager.default.createFile(atPath: "\(directory)/f\(index)", contents: nil))
        }
        let some = BoundedFile.names(inDirectory: directory, limit: 3)
        #expect(some.count == 3)
        #expect(Set(some).isSubset(of: (0..<10).map { "f\($0)" }))
        #expect(BoundedFile.names(inDirectory: directory).count == 10)
    }

    @Test func anEmptyMissingOrNonDirectoryPathListsNothing() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(BoundedFile.names(inDirectory: directory).isEmpty)
        #expect(BoundedFile.names(inDirectory: "\(directory)/absent").isEmpty)
        #expect(FileManager.default.createFile(atPath: "\(directory)/file", contents: nil))
        #expect(BoundedFile.names(inDirectory: "\(directory)/file").isEmpty)
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
