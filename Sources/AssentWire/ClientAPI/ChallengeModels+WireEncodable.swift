// The challenge responses of the client API written by hand (``JSONWriter``): the same keys and `null`s as their
// `Encodable` conformances, keys in sorted order, which the tests compare with `JSONEncoder`'s `.sortedKeys` output
// byte for byte.

extension ChallengeUser: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { $0.member("custom", custom) }
    }
}

extension PushChallengeResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("actionCode", actionCode)
            // Written as null when nothing is pending, as clients expect (see `encode(to:)`).
            writer.memberOrNull("challengeId", challengeId)
            writer.member("custom", custom)
            writer.member("deviceId", deviceId)
            writer.member("expiresAt", expiresAt)
            writer.member("idempotencyKey", idempotencyKey)
            writer.member("ipAddress", ipAddress)
            writer.member("user", user)
            writer.member("userAgent", userAgent)
            writer.member("userAuthenticatorId", userAuthenticatorId)
            writer.memberOrNull("userId", userId)
            writer.member("verificationCodeRequired", verificationCodeRequired)
        }
    }
}

extension UpdateChallengeResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { $0.member("isVerified", isVerified) }
    }
}

extension DeliveryResult: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("errorCode", errorCode)
            writer.member("userAuthenticatorId", userAuthenticatorId)
        }
    }
}

extension StartPushChallengeResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("challengeId", challengeId)
            writer.member("deliveryResults", deliveryResults)
            writer.member("expiresAt", expiresAt)
            writer.member("verificationCode", verificationCode)
        }
    }
}

extension VerifyPushResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("accessToken", accessToken)
            writer.member("isConsumed", isConsumed)
            writer.member("isVerified", isVerified)
        }
    }
}

extension StartQRChallengeResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("challengeId", challengeId)
            writer.member("deviceCode", deviceCode)
            writer.member("expiresAt", expiresAt)
            writer.member("qrPayload", qrPayload)
        }
    }
}

extension VerifyQRResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("accessToken", accessToken)
            writer.member("isClaimed", isClaimed)
            writer.member("isConsumed", isConsumed)
            writer.member("isVerified", isVerified)
        }
    }
}

extension ClaimChallengeResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("actionCode", actionCode)
            writer.member("custom", custom)
            writer.member("idempotencyKey", idempotencyKey)
            writer.member("ipAddress", ipAddress)
            // Written as null when absent (see `encode(to:)`).
            writer.memberOrNull("location", location)
            writer.member("success", success)
            writer.member("user", user)
            writer.member("userAgent", userAgent)
        }
    }
}
