import ArgumentParser
import Glibc
import SystemPackage
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Summarise watch's JSON Lines: availability, outages and portal periods per path.",
        discussion: """
            Reads `netprobe watch --json` records from each FILE in turn (- or none: stdin). A \
            record's state holds until the next record; a "stop" record ends it, and the time until \
            the next "start" is not observed; a "start" with no "stop" before it shows a watch that \
            died after its last record. The last state runs on to --now while the log's heartbeat \
            says its watch is still running, else to its last record. Records out of order by up to 4096 records are sorted; an older one is skipped. A \
            malformed or truncated line is counted and skipped with a warning on stderr (the \
            first 20 are shown). Exit status 0, 64 bad command line, 66 a FILE cannot be read.
            """
    )

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, html
        static var allValueStrings: [String] { allCases.map { $0.rawValue } }
        static var allValueDescriptions: [String: String] { [:] }
    }

    @Option(name: .customLong("format"), help: "Output format: text, json or html (one self-contained page).")
    var format: ReportFormat = .text

    @Option(name: .customLong("now"),
            help: ArgumentHelp("Summarise as of this RFC 3339 time instead of the system clock's.", valueName: "time"),
            transform: { text in
                guard let ms = RFC3339.milliseconds(text) else {
                    throw ValidationError("--now: not an RFC 3339 date-time (such as 2026-03-02T10:00:00Z).")
                }
                return ms
            })
    var now: Int64?

    @Argument(help: ArgumentHelp("watch --json output to read; - or none for stdin.", valueName: "file"),
              completion: .file())
    var files: [String] = []

    /// Warnings past this many are counted, not printed: a log of garbage must not bury the answer.
    static let warningLimit = 20

    func run() throws {
        SignalInbox.ignoreBrokenPipe()
        // Every file is opened before anything is read, so a typo fails at once with no output.
        var inputs: [(name: String, stream: CheckedFile.Stream)] = []
        for name in files.isEmpty ? ["-"] : files {
            if name == "-" { inputs.append((name, .standardInput())); continue }
            do {
                inputs.append((name, try CheckedFile.Stream(path: name)))
            } catch {
                throw Self.unreadable(name, error)
            }
        }
        var summarizer = WatchSummarizer()
        var warnings = 0
        let warn = { (skipped: WatchSummarizer.Skipped) in
            warnings += 1
            guard warnings <= Self.warningLimit else { return }
            Log.note("\(skipped.source):\(skipped.line): skipped: \(skipped.message)")
        }
        // Large reads: most lines then lie wholly inside one chunk and are read there, not copied.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 1)
        defer { buffer.deallocate() }
        for input in inputs {
            var lines = WatchLogLines(source: input.name == "-" ? "stdin" : input.name)
            while true {
                let count: Int
                do {
                    count = try input.stream.read(into: buffer)
                } catch {
                    throw Self.unreadable(input.name, error)
                }
                if count == 0 { break }
                lines.consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), into: &summarizer, warn: warn)
            }
            lines.finish(into: &summarizer, warn: warn)
        }
        if warnings > Self.warningLimit { Log.note("\(warnings - Self.warningLimit) more skipped line(s) not shown") }
        let summary = summarizer.finish(now: now ?? Self.wallClockMilliseconds())
        let text: String
        switch format {
        case .text: text = SummaryText.format(summary)
        case .json: text = SummaryDocument.format(summary)
        case .html: text = SummaryHTML.format(summary)
        }
        // A reader that went away (EPIPE) is no failure of the report.
        Output.write(text)
    }

    static func wallClockMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    static func unreadable(_ name: String, _ failure: CheckedFile.Failure) -> ExitCode {
        let why: String
        switch failure {
        case .cannotOpen(let errno), .cannotRead(let errno): why = errno.description
        case .notRegularFile(.directory): why = Errno.isDirectory.description
        default: why = failure.description
        }
        return Output.fail("report: cannot read \(name): \(why)", status: ExitStatus.noInput)
    }
}
