import NetprobeWire
import NetprobeVerdict
import NetprobeNetwork
import XCTest

/// Later waves on real sockets: a held request opens no connection until it is released
/// (from `onResult`, as the check's round does when an answer leaves doubt), and one ended
/// before its release is never sent at all.
final class ProbeRunnerWaveTests: ServerTestCase {
    func held(_ path: String, name: String) throws -> ProbeRequest {
        var request = try request(path, name: name)
        request.held = true
        return request
    }

    func testAHeldRequestGoesOnlyWhenReleased() throws {
        let requests = [try request("/generate_204", name: "first"), try held("/generate_204", name: "released"),
                        try held("/generate_204", name: "never")]
        let runner = try ProbeRunner()
        var delivered: [String] = []
        let results = runner.run(requests, deadline: .now + .seconds(10)) { observation in
            delivered.append(observation.name)
            if observation.name == "first" { runner.release(["released"], at: .now) }
            return true
        }
        XCTAssertEqual(delivered, ["first", "released"], "the held request answered after its release, the other never")
        XCTAssertEqual(results.map(\.status), [204, 204, nil])
        XCTAssertNotNil(results[1].remoteAddress)
        XCTAssertEqual(results[2].transportError?.kind, .cancelled)
        XCTAssertNil(results[2].remoteAddress, "a request never released opens no connection")
    }

    func testAHeldRequestEndedBeforeItsReleaseIsNeverSent() throws {
        let requests = [try request("/generate_204", name: "first"), try held("/generate_204", name: "later")]
        let runner = try ProbeRunner()
        runner.release(["later"], at: .now + .seconds(30))
        var delivered: [String] = []
        let results = runner.run(requests, deadline: .now + .seconds(60)) { observation in
            delivered.append(observation.name)
            if observation.name == "first" { runner.end(["later"], at: .now, with: ProbeRunner.cancelledError) }
            return true
        }
        XCTAssertEqual(delivered, ["first", "later"], "the ending is a result too")
        XCTAssertEqual(results[1].transportError?.kind, .cancelled)
        XCTAssertNil(results[1].remoteAddress, "ended while held: no connection was ever opened")
        XCTAssertNil(results[1].status)
    }
}
