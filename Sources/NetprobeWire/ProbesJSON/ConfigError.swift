/// One precise problem in a probes.json: which file, where in it, what was expected.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// JSONPath-style location, e.g. `$.probes[2].url`.
    public var path: String
    public var message: String
    /// Where the value at `path` (or the object missing it) is in the file; nil when unknown.
    public var position: JSONPosition?

    public init(file: String, path: String, message: String, position: JSONPosition? = nil) {
        self.file = file
        self.path = path
        self.message = message
        self.position = position
    }

    /// Names, URLs and keys come from the file as written: escaped, so a hostile file cannot drive the
    /// terminal. The file name has its own limit, so a long path is never cut from its own error.
    public var description: String {
        TerminalText.escape(file, limit: 8192) + ": " + TerminalText.escape("\(path): \(message)", limit: 4096)
            + (position.map { " (\($0))" } ?? "")
    }
}

public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The first issues found (at most ConfigParser.maximumIssues).
    public var issues: [ConfigIssue]
    /// How many more were found and not kept: a file of 300,000 bad probes is told in a few lines.
    public var omitted: Int

    public init(issues: [ConfigIssue], omitted: Int = 0) {
        self.issues = issues
        self.omitted = omitted
    }

    public var description: String {
        let lines = issues.map(\.description) + (omitted > 0 ? ["... and \(omitted) more"] : [])
        return lines.joined(separator: "\n")
    }
}
