import CCurl
import NetprobeWire
import NetprobeVerdict

/// One `ProbeRunner.run`, from the first transfer started to the last one ended: which are
/// running, which are held for a later wave, what each gave. The runner keeps what its caller
/// may change while the round runs (the cut-offs and releases `end` and `release` set, from
/// `onResult`); the round reads them at every wake-up.
final class TransferRound {
    private let runner: ProbeRunner
    private let requests: [ProbeRequest]
    private let deadline: ContinuousClock.Instant
    private let started: ContinuousClock.Instant
    private let multi: UnsafeMutableRawPointer?
    private let trust: TrustShares
    private let onResult: (ProbeObservation) -> Bool
    private var results: [ProbeObservation?]
    /// In request order. A round has a few dozen transfers at most: a scan finds one sooner
    /// than a dictionary's first use costs (its storage type is built at run time).
    private var active: [Transfer] = []
    /// Held requests (later waves), in request order, until released or ended.
    private var held: [Int] = []
    /// Transfers ended while their name lookup ran, on a libcurl that would wait for it
    /// (Transfer.endingWouldWait): they stay in the multi handle, ended with it after the round.
    private var lingering: [Transfer] = []
    /// onResult has not said "enough" yet.
    private var listening = true
    private var failure: TransportError?

    init(runner: ProbeRunner, requests: [ProbeRequest], deadline: ContinuousClock.Instant, started: ContinuousClock.Instant,
         multi: UnsafeMutableRawPointer?, trust: TrustShares, onResult: @escaping (ProbeObservation) -> Bool) {
        self.runner = runner
        self.requests = requests
        self.deadline = deadline
        self.started = started
        self.multi = multi
        self.trust = trust
        self.onResult = onResult
        results = [ProbeObservation?](repeating: nil, count: requests.count)
    }

    /// Every request not held for a later wave starts now; the held ones wait.
    func startFirstWave() {
        for index in requests.indices {
            if requests[index].held { held.append(index) } else { start(index) }
        }
    }

    /// Until nothing runs or waits, the caller has had enough, or the deadline: libcurl's work,
    /// the finished transfers reported, those whose cut-off came ended, the held ones released.
    func drive() {
        while let multi, hasWork && listening {
            releaseDue()
            var stillRunning: Int32 = 0
            let performed = netprobe_multi_perform(multi, &stillRunning)
            // Connections that completed their handshake in this round stop ending on ICMP errors.
            netprobe_socket_ledger_settle(runner.roundSetting.ledger)
            guard performed == CURLM_OK else {
                failure = ProbeRunner.multiError("curl_multi_perform", performed)
                return
            }
            drainFinished(multi)
            endCutOff(now: .now)
            releaseDue()
            guard let waitMs = nextWaitMs() else { return }
            // libcurl shortens the wait itself when one of its own timers is due sooner.
            let polled = netprobe_multi_poll(multi, nil, 0, waitMs, nil)
            guard polled == CURLM_OK else {
                failure = ProbeRunner.multiError("curl_multi_poll", polled)
                return
            }
        }
    }

    /// Whatever is left ends here, in request order so reports are stable; the multi handle is
    /// cleaned up (or handed to a thread of its own with the lingering transfers).
    func wrapUp() -> [ProbeObservation] {
        let ending = failure ?? (listening ? ProbeRunner.deadlineError : ProbeRunner.cancelledError)
        for transfer in active {
            end(transfer)
            let observation = transfer.observation(endedWith: ending)
            if ending.kind == .cancelled {
                results[transfer.index] = observation
            } else {
                finish(transfer.index, observation)
            }
        }
        active.removeAll()
        // Held requests never released were not needed: never sent.
        for index in held {
            results[index] = ProbeRunner.unsent(requests[index], ProbeRunner.cancelledError)
        }
        if let multi {
            if lingering.isEmpty {
                netprobe_multi_cleanup(multi)
            } else {
                runner.handOverLedger()
                Transfer.endLater(lingering, multi: multi)
            }
        }
        return zip(requests, results).map { request, result in result ?? ProbeRunner.unsent(request, ProbeRunner.cancelledError) }
    }

    private var hasWork: Bool {
        !active.isEmpty || held.contains { runner.releaseTime(requests[$0].name) != nil || runner.cutoff(requests[$0].name) != nil }
    }

    private func end(_ transfer: Transfer) {
        if transfer.endingWouldWait { lingering.append(transfer) } else { transfer.detach() }
    }

    private func finish(_ index: Int, _ observation: ProbeObservation) {
        results[index] = observation
        if listening { listening = onResult(observation) }
    }

    private func start(_ index: Int) {
        let request = requests[index]
        guard let multi else {
            finish(index, ProbeRunner.unsent(request, ProbeRunner.internalError("curl_multi_init failed")))
            return
        }
        if !listening {
            results[index] = ProbeRunner.unsent(request, ProbeRunner.cancelledError)
            return
        }
        let leftMs = (deadline - .now).inMilliseconds
        guard leftMs >= 1 else {
            finish(index, ProbeRunner.unsent(request, ProbeRunner.deadlineError))
            return
        }
        do {
            // A later wave ends when the first would have: its limit counts from the round's start.
            let spentMs = (ContinuousClock.now - started).inMilliseconds
            let limitMs = min(ProbeRunner.probeLimitMs(request.timeout) - spentMs, leftMs).rounded(.up)
            guard limitMs >= 1 else {
                finish(index, ProbeRunner.unsent(request, ProbeRunner.deadlineError))
                return
            }
            let setting = runner.roundSetting
            let transfer = try Transfer(index: index, request: request, timeLimitMs: Int(limitMs), trust: trust,
                                        library: setting.library, wire: setting.ledger, sessions: setting.sessions)
            if transfer.attach(to: multi) {
                active.append(transfer)
            } else {
                finish(index, transfer.observation(endedWith: ProbeRunner.internalError("curl_multi_add_handle failed")))
            }
        } catch {
            finish(index, ProbeRunner.unsent(request, TransportError(kind: .other, code: Int(error.code), message: error.message)))
        }
    }

    /// Held requests whose cut-off or release has come: ended unsent, or started.
    private func releaseDue() {
        guard !held.isEmpty else { return }
        let now = ContinuousClock.now
        for index in held {
            let name = requests[index].name
            if let cutoff = runner.cutoff(name), cutoff.instant <= now {
                held.removeAll { $0 == index }
                finish(index, ProbeRunner.unsent(requests[index], cutoff.error))
            } else if let release = runner.releaseTime(name), release <= now {
                held.removeAll { $0 == index }
                start(index)
            }
        }
    }

    /// Every finished transfer reported, even after onResult said stop: those are real results.
    private func drainFinished(_ multi: UnsafeMutableRawPointer) {
        var queued: Int32 = 0
        while let message = netprobe_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let position = active.firstIndex(where: { $0.handle == easy })
            else { continue }
            let transfer = active.remove(at: position)
            let result = netprobe_msg_result(message)  // read before detach frees the message
            transfer.detach()
            finish(transfer.index, transfer.observation(result: result))
        }
    }

    /// Transfers whose cut-off has come end now, in request order: a resolve deadline missed,
    /// a probe's own time limit, or what the caller decided (`end`).
    private func endCutOff(now: ContinuousClock.Instant) {
        for transfer in active where runner.cutoff(transfer.request.name) == nil {
            if ProbeRunner.resolveDue(transfer, now: now, since: started) {
                runner.setCutoff(transfer.request.name, (now, ProbeRunner.unresolvedError(after: transfer.request.resolveWithin ?? 0)))
            } else if let ownDeadline = transfer.ownDeadline, ownDeadline <= now {
                runner.setCutoff(transfer.request.name, (now, transfer.timedOutError))
            }
        }
        // Nothing is cut off until an answer decides something: most wake-ups look once.
        guard runner.hasCutoffs else { return }
        let isDue = { (transfer: Transfer) in self.runner.cutoff(transfer.request.name).map { $0.instant <= now } ?? false }
        let due = active.filter(isDue)
        if !due.isEmpty { active.removeAll(where: isDue) }
        for transfer in due {
            end(transfer)
            finish(transfer.index, transfer.observation(endedWith: runner.cutoff(transfer.request.name)!.error))
        }
    }

    /// How long to wait for libcurl before the next cut-off or release is due (at most a
    /// second); nil when nothing is left to wait for, the caller has had enough, or the deadline passed.
    private func nextWaitMs() -> Int32? {
        let leftMs = (deadline - .now).inMilliseconds
        let waiting = held.compactMap { index in
            [runner.releaseTime(requests[index].name), runner.cutoff(requests[index].name)?.instant].compactMap { $0 }.min()
        }
        guard !active.isEmpty || !waiting.isEmpty, listening, leftMs > 0 else { return nil }
        let nextCutoff = (active.compactMap { transfer in
            [runner.cutoff(transfer.request.name)?.instant ?? ProbeRunner.pendingResolveCutoff(transfer, since: started),
             transfer.ownDeadline].compactMap { $0 }.min()
        } + waiting).min()
        let cutoffMs = nextCutoff.map { ($0 - .now).inMilliseconds } ?? leftMs
        return Int32(max(0, min(1000, min(leftMs, cutoffMs))).rounded(.up))
    }
}
