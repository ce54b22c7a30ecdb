import Foundation
import NetprobeWire
import NetprobeVerdict
import NetprobeSystem
import NetprobeWatch
import Testing

/// The memory's file in a real directory: written whole and private, read back; whatever stands
/// in its place (a FIFO, a link, a huge file) is refused at once, never waited on.
@Suite struct NetworkMemoryStoreTests {
    typealias Directory = CheckedFileTests.Directory

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test func savedThenLoaded() throws {
        let directory = try Directory()
        let store = NetworkMemoryStore(directory: directory.path)
        #expect(store.load() == NetworkMemoryFile.Loaded(), "no file yet: nothing remembered, nothing wrong")
        let memory = NetworkMemoryFileTests.memory
        try store.save(memory)
        #expect(store.path == directory.path + "/networks.json")
        #expect(Self.mode(store.path) == 0o600)
        let loaded = store.load()
        #expect(loaded.problem == nil)
        #expect(loaded.memory.entries.map(\.id) == memory.entries.map(\.id))
        #expect(NetworkMemoryFile.encode(loaded.memory) == NetworkMemoryFile.encode(memory))
        // Saved again: replaced, and no temporary file left beside it.
        try store.save(NetworkMemory())
        #expect(store.load() == NetworkMemoryFile.Loaded())
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["networks.json"])
    }

    @Test func aFIFOInItsPlaceIsRefusedWithoutWaiting() throws {
        let directory = try Directory()
        let store = NetworkMemoryStore(directory: directory.path)
        #expect(mkfifo(store.path, 0o600) == 0)
        // A blocking open of a FIFO with no writer would never return: this test would hang.
        #expect(store.load() == NetworkMemoryFile.Loaded(problem: "not a regular file (a pipe): ignored"))
        // Saving replaces it with a file.
        try store.save(NetworkMemoryFileTests.memory)
        #expect(store.load().memory.entries.count == 2)
    }

    @Test func aLinkInItsPlaceIsRefused() throws {
        let directory = try Directory()
        let store = NetworkMemoryStore(directory: directory.path)
        let elsewhere = directory.write("elsewhere.json", NetworkMemoryFile.encode(NetworkMemoryFileTests.memory))
        #expect(symlink(elsewhere, store.path) == 0)
        #expect(store.load() == NetworkMemoryFile.Loaded(problem: "not a regular file (a symbolic link): ignored"))
        #expect(unlink(store.path) == 0 && symlink(store.path, store.path) == 0, "a link to itself")
        #expect(store.load() == NetworkMemoryFile.Loaded(problem: "not a regular file (a symbolic link): ignored"))
    }

    @Test func aHugeFileIsIgnoredWhole() throws {
        let directory = try Directory()
        let store = NetworkMemoryStore(directory: directory.path)
        var bytes = NetworkMemoryFile.encode(NetworkMemoryFileTests.memory)
        bytes.insert(contentsOf: [UInt8](repeating: 0x20, count: (1 << 20) - bytes.count), at: bytes.count - 1)
        _ = directory.write("networks.json", bytes)
        #expect(store.load() == NetworkMemoryFile.Loaded(problem: "larger than 65536 bytes: ignored"))
        _ = directory.write("networks.json", Array("{\"version\":2,\"networks\":[]}".utf8))
        #expect(store.load() == NetworkMemoryFile.Loaded(problem: "version 2, not 1: ignored"))
    }

    @Test func aDirectoryThatCannotBeWrittenIsSaid() throws {
        let store = NetworkMemoryStore(directory: "/nonexistent-netprobe-state")
        #expect(throws: TextfileError.self) { try store.save(NetworkMemory()) }
    }
}
