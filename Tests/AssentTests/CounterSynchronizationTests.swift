@testable import Assent
import AssentCrypto
import Testing

/// The device's counter synchronization against the status blob's `CTR_BYTE` and `CTR_DATA` hash (§3.4).
@Suite struct CounterSynchronizationTests {
    private let transportKey = Array(0..<16).map(UInt8.init)
    private let start = Array(repeating: UInt8(7), count: 16)

    private func evaluate(localSteps: Int, localByte: Int, serverSteps: Int, serverByte: UInt8, lookAhead: Int = 20) throws
        -> CounterSynchronization
    {
        let hash = try PowerAuthStatusBlob.counterDataHash(
            transportKey: transportKey, counterData: PowerAuthCounter.advance(start, by: serverSteps))
        return try CounterSynchronization.evaluate(
            localCounterData: PowerAuthCounter.advance(start, by: localSteps), localCounterByte: localByte,
            serverCounterByte: serverByte, serverCounterDataHash: hash, transportKey: transportKey, lookAhead: lookAhead)
    }

    @Test func `equal counters are in step`() throws {
        #expect(try evaluate(localSteps: 5, localByte: 5, serverSteps: 5, serverByte: 5) == .inStep)
    }

    @Test func `a device ahead inside the window is reported, and past half of it a signature is recommended`() throws {
        #expect(try evaluate(localSteps: 3, localByte: 3, serverSteps: 0, serverByte: 0) == .clientAhead(distance: 3, recommended: false))
        #expect(try evaluate(localSteps: 10, localByte: 10, serverSteps: 0, serverByte: 0) == .clientAhead(distance: 10, recommended: false))
        #expect(try evaluate(localSteps: 11, localByte: 11, serverSteps: 0, serverByte: 0) == .clientAhead(distance: 11, recommended: true))
        #expect(try evaluate(localSteps: 19, localByte: 19, serverSteps: 0, serverByte: 0) == .clientAhead(distance: 19, recommended: true))
    }

    @Test func `a device a whole window or more ahead is deadlocked`() throws {
        #expect(try evaluate(localSteps: 20, localByte: 20, serverSteps: 0, serverByte: 0) == .deadlock)
        #expect(try evaluate(localSteps: 40, localByte: 40, serverSteps: 0, serverByte: 0) == .deadlock)
        #expect(try evaluate(localSteps: 5, localByte: 5, serverSteps: 0, serverByte: 0, lookAhead: 5) == .deadlock)
    }

    @Test func `the counter byte wraps around`() throws {
        #expect(try evaluate(localSteps: 3, localByte: 1, serverSteps: 0, serverByte: 254) == .clientAhead(distance: 3, recommended: false))
    }

    @Test func `a server ahead of the device is adopted when byte and hash distances agree`() throws {
        #expect(try evaluate(localSteps: 0, localByte: 0, serverSteps: 4, serverByte: 4) == .serverAhead(steps: 4))
        #expect(try evaluate(localSteps: 0, localByte: 0, serverSteps: 4, serverByte: 3) == .deadlock)
    }

    @Test func `counters that do not match at all are a deadlock`() throws {
        let hash = try PowerAuthStatusBlob.counterDataHash(transportKey: transportKey, counterData: Array(repeating: 1, count: 16))
        #expect(try CounterSynchronization.evaluate(
            localCounterData: start, localCounterByte: 0, serverCounterByte: 0, serverCounterDataHash: hash,
            transportKey: transportKey, lookAhead: 20) == .deadlock)
    }
}
