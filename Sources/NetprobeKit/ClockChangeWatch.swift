import Glibc

/// A descriptor that becomes readable when the wall clock is set, and when the machine resumes
/// from suspend: a CLOCK_REALTIME timerfd armed for the far future with TFD_TIMER_CANCEL_ON_SET,
/// which the kernel cancels (read fails with ECANCELED) at every discontinuous change of the
/// clock, resume included. It is how a loop asleep in poll(2), whose timeout runs on
/// CLOCK_MONOTONIC and so stood still during the suspend, learns at once that it slept.
///
/// timerfd_create and timerfd_settime are in glibc but not in Swift's Glibc module: looked up
/// with dlsym, as SpawnSupport does. Where they are missing, there is no descriptor, and the
/// sleep is noticed at the next wake-up instead.
final class ClockChangeWatch {
    let fileDescriptor: Int32

    private typealias Create = @convention(c) (Int32, Int32) -> Int32
    private typealias SetTime = @convention(c) (Int32, Int32, UnsafePointer<itimerspec>, UnsafeMutablePointer<itimerspec>?) -> Int32
    private static let create: Create? = symbol("timerfd_create")
    private static let setTime: SetTime? = symbol("timerfd_settime")
    // <sys/timerfd.h>: TFD_CLOEXEC and TFD_NONBLOCK are O_CLOEXEC and O_NONBLOCK.
    private static let timerAbsolute: Int32 = 1
    private static let cancelOnSet: Int32 = 2

    init?() {
        guard let create = Self.create, Self.setTime != nil else { return nil }
        let fd = create(CLOCK_REALTIME, O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        fileDescriptor = fd
        guard arm() else {
            close(fd)
            return nil
        }
    }

    deinit { close(fileDescriptor) }

    /// After a wake-up: drains the descriptor and arms it again for the next change.
    func consume() {
        var expirations: UInt64 = 0
        _ = read(fileDescriptor, &expirations, MemoryLayout<UInt64>.size)  // ECANCELED: the clock changed
        _ = arm()
    }

    private func arm() -> Bool {
        var spec = itimerspec()
        spec.it_value.tv_sec = Int.max  // never expires: only the cancellation wakes it
        return Self.setTime?(fileDescriptor, Self.timerAbsolute | Self.cancelOnSet, &spec, nil) == 0
    }

    private static func symbol<T>(_ name: String) -> T? {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}

/// Gives the memory a check freed back to the kernel (glibc's malloc_trim): a daemon's idle
/// resident size is then what it holds, not the peak of its last check.
enum MemoryReturn {
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(address, to: Trim.self)
    }()

    static func afterCheck() {
        _ = trim?(0)
    }
}
