import NetprobeWire
extension CapportReport {
    /// An http:// (not https) URL: announced or given, it is reported and never asked.
    public static func isPlainHTTP(_ uri: String) -> Bool {
        uri.lowercased().hasPrefix("http://") && URLRules.httpHost(uri) != nil
    }
}
