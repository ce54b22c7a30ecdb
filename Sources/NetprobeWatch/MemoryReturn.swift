import CLibc

/// Gives the memory a check freed back to the kernel (glibc's malloc_trim): a daemon's idle
/// resident size is then what it holds, not the peak of its last check.
enum MemoryReturn {
    static func afterCheck() {
        _ = np_malloc_trim()
    }
}
