import Glibc

/// One variable of the process environment, read where it is needed. ProcessInfo's
/// `environment` builds a dictionary of every variable on each call, which costs more
/// than the rest of an offline check's configuration lookup.
enum Environment {
    static func get(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
