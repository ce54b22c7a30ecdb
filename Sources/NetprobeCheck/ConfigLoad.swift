import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
/// Reading probes.json from disk, through CheckedFile: opened once, checked on the open
/// descriptor (a regular file, at most `maximumFileBytes`), read no further than the cap.
/// Apart from CheckedFile this is the only part of the config code that touches the system,
/// which keeps the parser itself compilable alone for the fuzz targets.
extension ConfigParser {
    public static func load(path: String) throws(ConfigError) -> ProbeConfig {
        let bytes: [UInt8]
        do {
            bytes = try CheckedFile.read(path, limit: maximumFileBytes)
        } catch {
            throw ConfigError(issues: [ConfigIssue(file: path, path: JSONPath.root, message: message(for: error))])
        }
        return try parse(bytes: bytes, file: path)
    }

    /// The wording people already know from earlier versions, where there is one.
    static func message(for failure: CheckedFile.Failure) -> String {
        switch failure {
        case .cannotOpen(.noSuchFileOrDirectory): return "the file does not exist"
        case .notRegularFile(.directory): return "expected a file, found a directory"
        case .notRegularFile: return "expected a regular file, found a device, pipe or socket"
        case .tooLarge(let limit): return "expected at most \(limit) bytes; the file is larger"
        case .cannotOpen, .cannotRead: return failure.description
        }
    }
}
