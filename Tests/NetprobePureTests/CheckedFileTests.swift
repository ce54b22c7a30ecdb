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

/// CheckedFile against real files: what is refused is refused on the open descriptor,
/// before any byte is read; what is read stops at the cap.
@Suite struct CheckedFileTests {
    final class Directory {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("np-checked-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        func write(_ name: String, _ bytes: [UInt8]) -> String {
            let file = "\(path)/\(name)"
            #expect(FileManager.default.createFile(atPath: file, contents: Data(bytes)), "cannot create \(file)")
            return file
        }
    }

    /// What the call failed with, as printed; nil when it did not fail.
    private func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as CheckedFile.Failure {
            return error.description
        } catch {
            return "not a CheckedFile.Failure: \(error)"
        }
    }

    @Test func readsARegularFileWhole() throws {
        let directory = try Directory()
        let file = directory.write("a.json", Array("{}\n".utf8))
        #expect(try CheckedFile.read(file, limit: 3) == Array("{}\n".utf8))
        #expect(failure { _ = try CheckedFile.read(file, limit: 2) } == "larger than 2 bytes")
        #expect(try CheckedFile.read(file, limit: 2, overflow: .truncate) == Array("{}".utf8))
    }

    @Test func refusesWhatIsNotARegularFile() throws {
        let directory = try Directory()
        let fifo = "\(directory.path)/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(failure { _ = try CheckedFile.read(fifo, limit: 10) } == "not a regular file (a pipe)")
        #expect(failure { _ = try CheckedFile.read(directory.path, limit: 10) } == "not a regular file (a directory)")
        #expect(failure { _ = try CheckedFile.read("/dev/zero", limit: 10, overflow: .truncate) } == "not a regular file (a device)")
        #expect(failure { _ = try CheckedFile.read("\(directory.path)/absent", limit: 10) } == "cannot open: No such file or directory")
        #expect(failure { try CheckedFile.check(fifo, limit: 10) } == "not a regular file (a pipe)")
    }

    /// The size fstat reports is checked before reading: a sparse gigabyte costs nothing.
    @Test func aSparseGigabyteIsRefusedUnread() throws {
        let directory = try Directory()
        let file = directory.write("huge", [])
        #expect(truncate(file, 1 << 30) == 0)
        let clock = ContinuousClock()
        var message: String?
        let elapsed = clock.measure { message = failure { _ = try CheckedFile.read(file, limit: 1 << 20) } }
        #expect(message == "larger than 1048576 bytes")
        #expect(elapsed < .milliseconds(100), "\(elapsed)")
        #expect(failure { try CheckedFile.check(file, limit: 1 << 20) } == "larger than 1048576 bytes")
    }

    /// /proc files say size 0 and go on: the read stops at the cap whatever the size said.
    @Test func procFilesAreReadOnlyToTheCap() throws {
        #expect(failure { _ = try CheckedFile.read("/proc/self/pagemap", limit: 4096) } == "larger than 4096 bytes")
        let head = try CheckedFile.read("/proc/self/pagemap", limit: 4096, overflow: .truncate)
        #expect(head.count == 4096)
    }

    @Test func symbolicLinksAreFollowedOnlyWhenAsked() throws {
        let directory = try Directory()
        let target = directory.write("target", Array("x".utf8))
        let link = "\(directory.path)/link"
        #expect(symlink(target, link) == 0)
        #expect(try CheckedFile.read(link, limit: 10) == Array("x".utf8))
        #expect(failure { _ = try CheckedFile.read(link, limit: 10, followSymlinks: false) } == "not a regular file (a symbolic link)")
    }
}
