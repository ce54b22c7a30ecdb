import Testing

/// Every lab test runs one after another: they measure reaction times and count
/// records, and on a small shared machine parallel namespaces would skew both.
@Suite("netprobe wait/watch lab", .serialized)
enum LabSuite {}
