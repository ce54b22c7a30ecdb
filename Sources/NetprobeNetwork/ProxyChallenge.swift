import NetprobeWire
import NetprobeVerdict
import NetprobeSystem
/// Reads a `Proxy-Authenticate` challenge (RFC 9110 11.6.2), only as far as the report
/// needs: the realm the proxy names, so a person knows which credentials it wants.
/// The header is hostile input: the result is bounded; escaping is the formatters' job.
enum ProxyChallenge {
    static let maxRealmLength = 128

    /// The first `realm` parameter's value (quoted-string or token), nil without one.
    static func realm(_ header: String) -> String? {
        var rest = Substring(header)
        while let range = rest.firstRange(of: "realm=") ?? rest.firstRange(of: "Realm=") ?? rest.firstRange(of: "REALM=") {
            // A parameter name starts the header, or follows a space or a comma.
            let before = rest[..<range.lowerBound].last
            rest = rest[range.upperBound...]
            guard before == nil || before == " " || before == "," || before == "\t" else { continue }
            if rest.first == "\"" {
                return quoted(rest.dropFirst())
            }
            let token = rest.prefix { $0 != "," && $0 != " " && $0 != "\t" }
            return token.isEmpty ? nil : String(token.prefix(maxRealmLength))
        }
        return nil
    }

    /// A quoted-string's content up to the closing quote, backslash escapes undone.
    private static func quoted(_ text: Substring) -> String? {
        var value = ""
        var escaped = false
        for character in text {
            if escaped {
                value.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return String(value.prefix(maxRealmLength))
            } else {
                value.append(character)
            }
        }
        return nil  // unterminated: not a realm we can vouch for
    }
}
