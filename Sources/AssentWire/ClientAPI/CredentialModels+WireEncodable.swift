// The credential responses of the client API written by hand (``JSONWriter``), as their synthesized `Encodable` with
// keys in sorted order.

extension AddCredentialResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("expiresAt", expiresAt)
            writer.member("userAuthenticatorId", userAuthenticatorId)
            writer.member("userId", userId)
            writer.member("verifiedAt", verifiedAt)
        }
    }
}

extension CredentialResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("expiresAt", expiresAt)
            writer.member("lastVerifiedAt", lastVerifiedAt)
            writer.member("userAuthenticatorId", userAuthenticatorId)
            writer.member("userId", userId)
            writer.member("verifiedAt", verifiedAt)
        }
    }
}

extension RemoveCredentialResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { $0.member("removedAuthenticatorId", removedAuthenticatorId) }
    }
}

extension SigningMessageResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("challengeId", challengeId)
            writer.member("message", message)
        }
    }
}

extension UpdateCredentialResponse: WireEncodable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("expiresAt", expiresAt)
            writer.member("lastVerifiedAt", lastVerifiedAt)
            writer.member("pushToken", pushToken)
            writer.member("userAuthenticatorId", userAuthenticatorId)
            writer.member("userId", userId)
        }
    }
}
