import AssentServerCore

extension AssentError.Code {
    /// The HTTP status this code answers with. Every code the core defines has one; a code added without one is a
    /// server failure (500), so a missing entry shows up in tests rather than as a wrong 4xx.
    var status: Int {
        switch self {
        case .invalidRequest, .attestationInvalid, .attestationChallengeInvalid: 400
        case .unauthorized, .invalidToken, .expiredToken, .invalidCredential, .invalidSignature: 401
        case .forbidden, .factorRequired, .actionNotAllowed, .tenantMismatch, .crossSiteRequest, .attestationRequired: 403
        case .notFound, .activationNotFound: 404
        case .conflict, .invalidState: 409
        // The challenge has expired or was already answered: 409 would hide which, 410 says "gone".
        case .challengeClosed: 410
        case .unsupportedMediaType: 415
        case .tooManyRequests, .rateLimited, .pushThrottled, .pushLocked: 429
        case .pushDeliveryFailed: 502
        case .unavailable: 503
        default: 500
        }
    }
}
