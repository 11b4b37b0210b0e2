/// The activation's status from ``AssentPowerAuth/fetchActivationStatus()``, after counter synchronization.
public struct ActivationStatus: Sendable, Hashable, Codable {
    /// The state (``ActivationState/deadlock`` when the counters cannot be synchronized).
    public var state: ActivationState
    /// Failed attempts so far.
    public var failCount: Int
    /// Failed attempts at which the server blocks the activation.
    public var maxFailCount: Int
    /// `maxFailCount - failCount`.
    public var remainingAttempts: Int
    /// The server's counter look-ahead window.
    public var lookAhead: Int
    /// Signatures this device computed that the server has not seen (0 when in step).
    public var counterDistance: Int
    /// Whether the device drifted more than half the window ahead: sign (and send) a request soon.
    public var isSignatureCalculationRecommended: Bool

    /// Creates a status.
    public init(
        state: ActivationState, failCount: Int, maxFailCount: Int, lookAhead: Int, counterDistance: Int,
        isSignatureCalculationRecommended: Bool
    ) {
        self.state = state
        self.failCount = failCount
        self.maxFailCount = maxFailCount
        self.remainingAttempts = max(0, maxFailCount - failCount)
        self.lookAhead = lookAhead
        self.counterDistance = counterDistance
        self.isSignatureCalculationRecommended = isSignatureCalculationRecommended
    }
}
