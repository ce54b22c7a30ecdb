import ArgumentParser
import Foundation
import NetprobeCore

enum ExitStatus {
    static let usage: Int32 = 64
    static let internalError: Int32 = 70
    static let badConfig: Int32 = 78
}

enum Output {
    static var colorAllowed: Bool {
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"] ?? ""
        return noColor.isEmpty && isatty(STDOUT_FILENO) == 1
    }

    static func render(_ report: Report, format: OutputFormat) -> String {
        switch format {
        case .text: return TextFormatter.format(report, palette: Palette(enabled: colorAllowed))
        case .json: return JSONFormatter.format(report)
        case .prometheus: return PrometheusFormatter.format(report)
        }
    }

    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func fail(_ message: String, status: Int32) -> ExitCode {
        FileHandle.standardError.write(Data("netprobe: \(message)\n".utf8))
        return ExitCode(status)
    }
}
