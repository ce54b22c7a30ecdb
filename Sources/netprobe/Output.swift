import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

enum ExitStatus {
    static let usage: Int32 = 64
    /// EX_NOINPUT: `report` cannot open or read a FILE.
    static let noInput: Int32 = 66
    static let internalError: Int32 = 70
    static let badConfig: Int32 = 78
}

enum Output {
    static var colorAllowed: Bool {
        let noColor = ProcessEnvironment.value("NO_COLOR") ?? ""
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
        FileOutput.write(text.hasSuffix("\n") ? text : text + "\n", to: STDOUT_FILENO)
    }

    /// A message for stdout (not a report, which its formatter has escaped and may colour):
    /// through the terminal escaper like every message, since it may quote a file name.
    static func say(_ text: String) {
        write(TerminalText.escapeLines(text))
    }

    /// Text for stderr (no "netprobe:" prefix), through the terminal escaper like every message.
    static func writeError(_ text: String) {
        let escaped = TerminalText.escapeLines(text)
        FileOutput.write(escaped.hasSuffix("\n") ? escaped : escaped + "\n", to: STDERR_FILENO)
    }

    static func fail(_ message: String, status: Int32) -> ExitCode {
        FileOutput.write("netprobe: \(TerminalText.escapeLines(message))\n", to: STDERR_FILENO)
        return ExitCode(status)
    }
}
