import NetprobeWire
import NetprobeVerdict
import NetprobeOutput
import NetprobeReport
import NetprobeSystem
import NetprobeNetwork
import NetprobeCheck
import NetprobeWatch
import XCTest

/// Base class: one probe_server.py per test class, killed by PID in class tear-down.
/// Only 127.0.0.1 is ever contacted.
class ServerTestCase: XCTestCase {
    nonisolated(unsafe) private static var shared: ProbeServer?
    nonisolated(unsafe) private static var startError: (any Error)?

    override class func setUp() {
        super.setUp()
        do {
            shared = try makeServer()
        } catch {
            startError = error
        }
    }

    override class func tearDown() {
        shared?.stop()
        shared = nil
        super.tearDown()
    }

    /// Subclasses that need a differently configured server override this.
    class func makeServer() throws -> ProbeServer {
        try ProbeServer()
    }

    var server: ProbeServer {
        get throws {
            guard let server = Self.shared else {
                throw Self.startError ?? ServerStartError(script: ProbeServer.script.path)
            }
            return server
        }
    }

    func request(_ path: String, name: String? = nil, timeout: Double = 5, maxBodyBytes: Int = 65536) throws -> ProbeRequest {
        ProbeRequest(name: name ?? path, url: try server.url(path), timeout: timeout, maxBodyBytes: maxBodyBytes)
    }

    /// Runs requests with a deadline `seconds` from now; returns results, delivery order and elapsed seconds.
    func run(
        _ requests: [ProbeRequest], deadlineIn seconds: Double = 10, stopAfter: Int? = nil
    ) throws -> (results: [ProbeObservation], delivered: [String], elapsed: Double) {
        let runner = try ProbeRunner()
        var delivered: [String] = []
        let start = ContinuousClock.now
        let results = runner.run(requests, deadline: start + .seconds(seconds)) { observation in
            delivered.append(observation.name)
            return stopAfter.map { delivered.count < $0 } ?? true
        }
        return (results, delivered, (ContinuousClock.now - start).inSeconds)
    }

    func runOne(_ path: String, timeout: Double = 5, maxBodyBytes: Int = 65536) throws -> ProbeObservation {
        let (results, _, _) = try run([request(path, timeout: timeout, maxBodyBytes: maxBodyBytes)])
        return try XCTUnwrap(results.first)
    }
}

extension ProbeObservation {
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}
