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

/// `wait`'s one-line progress on a terminal: what it is waiting for, rewritten
/// in place after each check and erased at the end, so only the report remains.
struct WaitProgress {
    let enabled: Bool
    let interfaces: [String]
    private var shown = false

    init(enabled: Bool, interfaces: [String]) {
        self.enabled = enabled
        self.interfaces = interfaces
    }

    mutating func show(_ report: Report) {
        guard enabled else { return }
        write("\r\u{1B}[K" + Self.fit("waiting: " + describe(report)))
        shown = true
    }

    mutating func clear() {
        guard enabled, shown else { return }
        write("\r\u{1B}[K")
        shown = false
    }

    func describe(_ report: Report) -> String {
        let proxies = report.proxiesUsed
        let via = proxies.isEmpty ? "" : " (via proxy " + proxies.map { TerminalText.escape($0) }.joined(separator: ", ") + ")"
        return state(report) + via
    }

    private func state(_ report: Report) -> String {
        let on = interfaces.isEmpty ? "" : " on " + interfaces.map { TerminalText.escape($0) }.joined(separator: ", ")
        if report.verdict == .portal {
            if let url = report.portal?.url { return "portal, log in at " + TerminalText.escape(url, limit: 200) }
            return "portal (\(report.reason.rawValue)), open any http:// page in a browser to log in"
        }
        switch report.reason {
        case .noDefaultRoute: return "no default route" + on
        case .noLink: return "no link up with carrier" + on
        case .noAddress: return "no global address" + on
        default:
            if let fault = report.fault { return TerminalText.escape(fault.summary) + " (\(report.reason.rawValue))" }
            return "\(report.reason.rawValue) (\(report.reason.meaning))"
        }
    }

    /// One terminal row at most: a wrapped line cannot be rewritten with \r.
    static func fit(_ line: String) -> String {
        let columns = Int(ProcessEnvironment.value("COLUMNS") ?? "") ?? 80
        let width = max(columns - 1, 20)
        return line.count <= width ? line : String(line.prefix(width - 3)) + "..."
    }

    private func write(_ text: String) {
        FileOutput.write(text, to: STDERR_FILENO)
    }
}
