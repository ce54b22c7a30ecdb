import NetprobeWire
import NetprobeVerdict
import NetprobeSystem

/// Where HTTPS probes find the certificate authorities they trust, when no --ca-bundle is given.
///
/// The system bundle (/etc/ssl/certs/ca-certificates.crt) is ~140 certificates that OpenSSL
/// parses whole on every check, 20-30 ms that also hold up the HTTP probes sharing the
/// transfer loop. The same directory usually carries OpenSSL's hash links (`<hash>.0`,
/// made by update-ca-certificates or `openssl rehash`): with it as CAPATH, OpenSSL reads
/// only the certificate of the issuer it is looking for. Without hash links, a directory is
/// useless to OpenSSL, and libcurl's built-in bundle stays in charge.
enum SystemTrust {
    static let directory = "/etc/ssl/certs"

    /// The certificate directory when it carries hash links; nil: use libcurl's default bundle.
    static let hashedDirectory: String? = hasHashLinks(directory) ? directory : nil

    /// True when `path` holds at least one entry named like OpenSSL's hash links (8 hex digits, ".0").
    static func hasHashLinks(_ path: String) -> Bool {
        var found = false
        DirectoryListing.forEachName(in: path) { name in
            found = isHashLink(name)
            return !found
        }
        return found
    }

    static func isHashLink(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 10, bytes[8] == UInt8(ascii: "."), bytes[9] == UInt8(ascii: "0") else { return false }
        return bytes[..<8].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
