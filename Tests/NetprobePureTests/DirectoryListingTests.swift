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

/// The one directory reader: the CA directory's hash links and DHCP clients' lease directories.
@Suite("directory listing")
struct DirectoryListingTests {
    private static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("np-core-dir-\(getpid())-\(UUID().uuidString)").path
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
        #expect(DirectoryListing.names(in: directory).sorted() == names.sorted())
    }

    @Test func stopsAtTheLimit() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for index in 0..<10 {
            #expect(FileManager.default.createFile(atPath: "\(directory)/f\(index)", contents: nil))
        }
        let some = DirectoryListing.names(in: directory, limit: 3)
        #expect(some.count == 3)
        #expect(Set(some).isSubset(of: (0..<10).map { "f\($0)" }))
        #expect(DirectoryListing.names(in: directory).count == 10)
    }

    @Test func anEmptyMissingOrNonDirectoryPathListsNothing() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(DirectoryListing.names(in: directory).isEmpty)
        #expect(DirectoryListing.names(in: "\(directory)/absent").isEmpty)
        #expect(FileManager.default.createFile(atPath: "\(directory)/file", contents: nil))
        #expect(DirectoryListing.names(in: "\(directory)/file").isEmpty)
        // A FIFO fails the directory open at once instead of waiting for a writer.
        #expect(mkfifo("\(directory)/fifo", 0o600) == 0)
        #expect(DirectoryListing.names(in: "\(directory)/fifo").isEmpty)
        #expect(!DirectoryListing.forEachName(in: "\(directory)/fifo") { _ in true })
    }

    @Test func theVisitorStopsTheListingWhenItSaysSo() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for index in 0..<5 {
            #expect(FileManager.default.createFile(atPath: "\(directory)/f\(index)", contents: nil))
        }
        var visited = 0
        #expect(DirectoryListing.forEachName(in: directory) { _ in visited += 1; return visited < 2 })
        #expect(visited == 2)
    }
}
