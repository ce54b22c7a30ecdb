import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// Where watch keeps its `NetworkMemory` between runs: `networks.json` in its state directory.
/// Read through the one checked file reader, capped at `NetworkMemoryFile.maxBytes`, never
/// following a symbolic link (watch never makes one there) and never blocking on a FIFO or a
/// device; written whole and replaced atomically, readable by its owner only (it names the
/// networks the machine has been on).
public struct NetworkMemoryStore: Sendable {
    public let directory: String
    public let path: String

    public init(directory: String) {
        self.directory = directory
        path = (directory.hasSuffix("/") ? directory : directory + "/") + NetworkMemoryFile.fileName
    }

    /// What the file holds. A missing file is an empty memory and no problem (a first run);
    /// a file that cannot be read, or not whole, is an empty memory and says why.
    public func load() -> NetworkMemoryFile.Loaded {
        let bytes: [UInt8]
        do {
            bytes = try CheckedFile.read(path, limit: NetworkMemoryFile.maxBytes, followSymlinks: false)
        } catch .cannotOpen(.noSuchFileOrDirectory) {
            return NetworkMemoryFile.Loaded()
        } catch {
            return NetworkMemoryFile.Loaded(problem: "\(error): ignored")
        }
        return NetworkMemoryFile.decode(bytes)
    }

    /// Replaces the file with `memory` (at most `NetworkMemoryFile.maxBytes`): a reader, or a
    /// crash, sees the old file or the new one, never a part of either.
    public func save(_ memory: NetworkMemory) throws(TextfileError) {
        let text = String(decoding: NetworkMemoryFile.encode(memory), as: UTF8.self)
        try TextfileWriter(path: path, mode: 0o600).write(text)
    }
}
