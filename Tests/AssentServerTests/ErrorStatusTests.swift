@testable import AssentServer
import AssentServerCore
import Testing

/// The HTTP status each domain error code answers with lives in the server, not the domain; these are the statuses
/// the wire reference and the official SDKs expect.
@Suite struct ErrorStatusTests {
    @Test func `every error code answers with its documented status`() {
        let expected: [(AssentError.Code, Int)] = [
            (.invalidRequest, 400), (.unauthorized, 401), (.invalidToken, 401), (.expiredToken, 401),
            (.invalidCredential, 401), (.invalidSignature, 401), (.forbidden, 403), (.factorRequired, 403),
            (.notFound, 404), (.activationNotFound, 404), (.conflict, 409), (.invalidState, 409),
            (.challengeClosed, 410), (.unsupportedMediaType, 415), (.tooManyRequests, 429), (.internalError, 500),
            (.pushDeliveryFailed, 502), (.unavailable, 503),
        ]
        for (code, status) in expected {
            #expect(code.status == status, "\(code)")
        }
        #expect(AssentError.Code(wire: "some_new_code").status == 500)
    }
}
