import CLibc
import Glibc
import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck

/// A descriptor that becomes readable when the wall clock is set, and when the machine resumes
/// from suspend: a CLOCK_REALTIME timerfd armed for the far future with TFD_TIMER_CANCEL_ON_SET,
/// which the kernel cancels (read fails with ECANCELED) at every discontinuous change of the
/// clock, resume included. It is how a loop asleep in poll(2), whose timeout runs on
/// CLOCK_MONOTONIC and so stood still during the suspend, learns at once that it slept.
/// Where the kernel refuses the timer, there is no descriptor, and the sleep is noticed at the
/// next wake-up instead.
final class ClockChangeWatch {
    let fileDescriptor: Int32

    init?() {
        // <sys/timerfd.h>: TFD_CLOEXEC and TFD_NONBLOCK are O_CLOEXEC and O_NONBLOCK.
        let fd = np_timerfd_create(CLOCK_REALTIME, O_CLOEXEC | O_NONBLOCK)
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
        return np_timerfd_settime(fileDescriptor, np_timerfd_cancel_on_set_flags(), &spec) == 0
    }
}
