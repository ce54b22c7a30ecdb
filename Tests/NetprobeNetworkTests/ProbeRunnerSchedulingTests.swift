import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import XCTest

/// Concurrency, completion order, cancellation and the overall deadline.
/// Timing assertions are one-sided or generous: shared CI machines are slow.
final class ProbeRunnerSchedulingTests: ServerTestCase {
    func testProbesRunConcurrently() throws {
        let requests = try (0..<4).map { try request("/slow?ms=500", name: "slow\($0)") }
        let (results, delivered, elapsed) = try run(requests)
        XCTAssertEqual(results.map(\.status), [204, 204, 204, 204])
        XCTAssertEqual(delivered.count, 4)
        XCTAssertLessThan(elapsed, 2.0, "four 500 ms probes in sequence would take 2 s")
    }

    func testResultsArriveInCompletionOrderButReturnInRequestOrder() throws {
        let requests = [try request("/slow?ms=800", name: "late"), try request("/slow?ms=10", name: "early")]
        let (results, delivered, _) = try run(requests)
        XCTAssertEqual(delivered, ["early", "late"])
        XCTAssertEqual(results.map(\.name), ["late", "early"])
    }

    func testStoppingCancelsEverythingStillRunning() throws {
        let requests = [
            try request("/stall", name: "stall1", timeout: 30), try request("/slow?ms=300", name: "fast"),
            try request("/stall", name: "stall2", timeout: 30), try request("/stall-body", name: "stall3", timeout: 30),
        ]
        let (results, delivered, elapsed) = try run(requests, deadlineIn: 30, stopAfter: 1)
        XCTAssertEqual(delivered, ["fast"], "onResult is not called again once it returned false")
        XCTAssertEqual(results.map(\.name), ["stall1", "fast", "stall2", "stall3"])
        XCTAssertEqual(results[1].status, 204)
        XCTAssertNil(results[1].transportError)
        for index in [0, 2, 3] {
            XCTAssertEqual(results[index].transportError?.kind, .cancelled, results[index].name)
        }
        // The stalled body's headers came 300 ms before "fast" finished.
        XCTAssertEqual(results[3].status, 200, "what arrived before cancellation is kept")
        XCTAssertLessThan(elapsed, 10)
    }

    func testOverallDeadlineEndsEveryTransfer() throws {
        let requests = [
            try request("/stall", name: "a", timeout: 30), try request("/stall-body", name: "b", timeout: 30),
            try request("/slow?ms=20000", name: "c", timeout: 30),
        ]
        let runner = try ProbeRunner()
        var delivered: [ProbeObservation] = []
        let deadline = ContinuousClock.now + .seconds(1)
        let results = runner.run(requests, deadline: deadline) { delivered.append($0); return true }
        let ended = ContinuousClock.now
        XCTAssertEqual(results.map { $0.transportError?.kind }, [.timeout, .timeout, .timeout])
        XCTAssertEqual(Set(delivered.map(\.name)), ["a", "b", "c"], "timeouts are results too")
        XCTAssertGreaterThanOrEqual(ended, deadline - .milliseconds(20))
        XCTAssertLessThan(ended, deadline + .seconds(3))
        for result in results {
            XCTAssertGreaterThan(result.timings.totalMs, 900, result.name)
        }
    }

    func testDeadlineAlreadyPassedSendsNothing() throws {
        let closed = try ClosedPort()
        let request = ProbeRequest(name: "late", url: "http://127.0.0.1:\(closed.port)/", timeout: 5)
        let runner = try ProbeRunner()
        var delivered = 0
        let results = runner.run([request], deadline: .now - .seconds(1)) { _ in delivered += 1; return true }
        XCTAssertEqual(results.first?.transportError?.kind, .timeout)
        XCTAssertNil(results.first?.remoteAddress, "no connection was attempted")
        XCTAssertEqual(delivered, 1)
    }

    func testStoppingOnAnEarlyFailureCancelsRequestsNotYetStarted() throws {
        let closed = try ClosedPort()
        let first = ProbeRequest(name: "bad", url: "ftp://127.0.0.1:\(closed.port)/", timeout: 5)
        let (results, delivered, _) = try run([first, try request("/generate_204", name: "never")], stopAfter: 1)
        XCTAssertEqual(delivered, ["bad"])
        XCTAssertEqual(results[1].transportError?.kind, .cancelled)
    }
}
