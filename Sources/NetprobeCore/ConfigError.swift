/// One precise problem in a probes.json: which file, where in it, what was expected.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// JSONPath-style location, e.g. `$.probes[2].url`.
    public var path: String
    public var message: String

    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    /// Names, URLs and keys come from the file as written: escaped, so a hostile file cannot drive the terminal.
    public var description: String { TerminalText.escape("\(file): \(path): \(message)", limit: 4096) }
}

public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public var issues: [ConfigIssue]

    public init(issues: [ConfigIssue]) {
        self.issues = issues
    }

    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
