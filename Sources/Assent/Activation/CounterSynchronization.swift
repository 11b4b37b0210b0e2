import AssentCrypto

/// The device's side of PowerAuth counter synchronization (the mobile SDK's `trySynchronizeCounter`): compares the
/// local `CTR_DATA` and counter byte with the server's, as the status blob reports them.
enum CounterSynchronization: Equatable {
    /// In step.
    case inStep
    /// The device computed `distance` signatures the server has not seen, still inside the window; `recommended`
    /// when more than half the window is used up.
    case clientAhead(distance: Int, recommended: Bool)
    /// The server is `steps` values ahead (the device lost state): adopt its counter.
    case serverAhead(steps: Int)
    /// No signature the device computes can verify again: it is at least a whole window ahead, or the counters do
    /// not match at all.
    case deadlock

    /// Compares the counters.
    ///
    /// The device is `d` signatures ahead when `d` of its signatures never reached the server; its next signature is
    /// then at distance `d` of the server's counter, and the server tries distances `0..<lookAhead` — so `d >=
    /// lookAhead` is a deadlock.
    static func evaluate(
        localCounterData: [UInt8], localCounterByte: Int, serverCounterByte: UInt8, serverCounterDataHash: [UInt8],
        transportKey: [UInt8], lookAhead: Int
    ) throws -> CounterSynchronization {
        let byteDistance = Int(Int8(truncatingIfNeeded: UInt8(truncatingIfNeeded: localCounterByte) &- serverCounterByte))
        let hashDistance = try PowerAuthCounter.distance(
            from: localCounterData, toHash: serverCounterDataHash, transportKey: transportKey, limit: lookAhead)
        switch hashDistance {
        case 0?:
            return .inStep
        case let steps? where -byteDistance == steps:
            return .serverAhead(steps: steps)
        case nil where byteDistance > 0:
            guard byteDistance < lookAhead else { return .deadlock }
            return .clientAhead(distance: byteDistance, recommended: byteDistance > lookAhead / 2)
        default:
            return .deadlock
        }
    }
}
