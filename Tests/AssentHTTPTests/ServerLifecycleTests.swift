import Testing
@testable import AssentHTTP

@Suite struct ServerLifecycleTests {
    typealias Lifecycle = ServerLifecycle<String>

    @Test func runsThroughIdleRunningDrainingStopped() throws {
        var state = Lifecycle.idle
        #expect(state.boundPort == nil)
        try state.checkCanStart()
        state.started("daemon", port: 1234)
        #expect(state.boundPort == 1234)
        #expect(throws: HTTPServerError(.alreadyStarted, "")) { try state.checkCanStart() }
        guard case .drain(let daemon) = state.beginShutdown() else {
            Issue.record("expected drain")
            return
        }
        #expect(daemon == "daemon")
        guard case .waitForOtherShutdown = state.beginShutdown() else {
            Issue.record("a second shutdown should wait")
            return
        }
        #expect(throws: HTTPServerError(.alreadyStarted, "")) { try state.checkCanStart() }
        state.finishShutdown()
        #expect(state.isStopped)
        #expect(state.boundPort == 1234)
        guard case .none = state.beginShutdown() else {
            Issue.record("shutdown after stop is a no-op")
            return
        }
        #expect(throws: HTTPServerError(.alreadyStopped, "")) { try state.checkCanStart() }
    }

    @Test func shutdownBeforeStartStopsWithoutDraining() {
        var state = Lifecycle.idle
        guard case .none = state.beginShutdown() else {
            Issue.record("nothing to drain")
            return
        }
        #expect(state.isStopped)
        #expect(state.boundPort == nil)
    }
}
