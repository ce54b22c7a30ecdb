@testable import NetprobeWire
@testable import NetprobeVerdict
@testable import NetprobeOutput
@testable import NetprobeReport

// watch's networks.json on arbitrary bytes: read, written, read again. Reading never traps;
// what it takes is within the caps and obeys the entry rules; what is written fits the file's
// cap and reads back as the same memory, without a problem.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNetworkMemoryFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let first = NetworkMemoryFile.decode(bytes)
    let memory = first.memory
    precondition(memory.entries.count <= NetworkMemory.maxNetworks, "\(memory.entries.count) networks")
    precondition(Set(memory.entries.map(\.id)).count == memory.entries.count, "a network twice")
    precondition(zip(memory.entries, memory.entries.dropFirst()).allSatisfy { $0.lastSeen <= $1.lastSeen }, "not oldest first")
    for entry in memory.entries {
        precondition(NetworkMemoryFile.isID(entry.id), "an id \(entry.id)")
        precondition(entry.intercepted.count <= NetworkMemoryFile.maxIntercepted, "\(entry.intercepted.count) intercepted")
        precondition((0...NetworkMemoryFile.maxOpenStreak).contains(entry.openStreak), "a streak of \(entry.openStreak)")
        for url in [entry.portalURL, entry.portalAPI, entry.informPortalAPI].compactMap({ $0 }) {
            precondition(NetworkMemoryFile.url(url) != nil, "a URL the rules refuse: \(url)")
        }
        precondition(entry.name.map(NetworkMemoryFile.isText) ?? true, "a name the rules refuse")
    }
    if let problem = first.problem {
        precondition(problem.count <= 240, "a problem of \(problem.count) characters")
        precondition(!problem.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "a control in the problem")
    }
    if memory.entries.isEmpty && first.problem == nil {
        precondition(bytes.count <= NetworkMemoryFile.maxBytes, "a file over the cap taken without a word")
    }
    let written = NetworkMemoryFile.encode(memory)
    precondition(written.count <= NetworkMemoryFile.maxBytes, "\(written.count) bytes written")
    let second = NetworkMemoryFile.decode(written)
    precondition(second.problem == nil, "what was written is not taken whole: \(second.problem ?? "")")
    // Written whole, the file reads back as the same memory. Only when the file's cap left
    // networks out (the writer spells each out in full, every key and milliseconds, which a
    // terse file within the cap need not) is it less: the networks seen most recently.
    let kept = second.memory.entries
    precondition(kept == Array(memory.entries.suffix(kept.count)), "read, written and read again, the memory changed")
    // Each entry is written at most about 160 bytes longer than the tersest text of it (the
    // keys of what is unknown, milliseconds, a streak of 10 digits given as 1e9); every string
    // is written as short as JSON allows. So only a file near the cap can lose networks.
    precondition(kept.count == memory.entries.count || bytes.count > NetworkMemoryFile.maxBytes - 256 * memory.entries.count,
                 "networks left out of a file with room for them")
    return 0
}
