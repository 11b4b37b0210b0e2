// The server API's hot responses (track, validate) and the error envelope written by hand (``JSONWriter``), as their
// synthesized `Encodable` with keys in sorted order.

extension ActionState: WireEncodable {}

extension VerificationMethod: WireEncodable {}

extension TrackResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("allowedVerificationMethods", allowedVerificationMethods)
            writer.member("defaultVerificationMethod", defaultVerificationMethod)
            writer.member("enrolledVerificationMethods", enrolledVerificationMethods)
            writer.member("idempotencyKey", idempotencyKey)
            writer.member("isEnrolled", isEnrolled)
            writer.member("ruleIds", ruleIds)
            writer.member("state", state)
            writer.member("token", token)
            writer.member("url", url)
        }
    }
}

extension ValidateResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("action", action)
            writer.member("actionCode", actionCode)
            writer.member("error", error)
            writer.member("idempotencyKey", idempotencyKey)
            writer.member("isValid", isValid)
            writer.member("state", state)
            writer.member("stateUpdatedAt", stateUpdatedAt)
            writer.member("userId", userId)
            writer.member("verificationMethod", verificationMethod)
        }
    }
}

extension ErrorResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("error", error)
            writer.member("errorCode", errorCode)
            writer.member("errorDescription", errorDescription)
        }
    }
}
