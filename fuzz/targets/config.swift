@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

// The probes.json loader, bytes in: a configuration or a ConfigError, never a trap; issues
// are capped; every issue names the file and a path from the root.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let config = try ConfigParser.parse(bytes: bytes, file: "fuzz.json")
        precondition(!config.probes.isEmpty && config.probes.count <= 64, "an accepted set with \(config.probes.count) probes")
    } catch {
        precondition(!error.issues.isEmpty && error.issues.count <= ConfigParser.maximumIssues, "\(error.issues.count) issues")
        for issue in error.issues {
            precondition(issue.file == "fuzz.json" && issue.path.hasPrefix("$"), "\(issue)")
            precondition(!issue.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                         "a raw control character in \(issue.description)")
        }
    }
    return 0
}
