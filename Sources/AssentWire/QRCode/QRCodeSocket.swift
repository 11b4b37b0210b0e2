/// The messages of the QR page's WebSocket (`GET /v1/ws-v1-challenge`, subprotocol `authsignal-ws`, wire reference
/// §4), as the official web SDK sends and reads them: each a JSON object `{"type": …, "data": {…}}`. The page sends
/// ``CreateChallenge``; the server answers ``ChallengeCreated`` or ``Failure``, then sends a ``StateChange`` whenever
/// the challenge is claimed, approved or declined. Only the web SDK and Assent's own pages speak it, hence `package`.
///
/// The server writes them with sorted keys and slashes unescaped (``JSONWriter``), as it always has.
package enum QRCodeSocket {
    /// `CREATE_CHALLENGE`: start a QR challenge, or a new one replacing the one the socket watches (the page's
    /// refresh before expiry). Its `data` is the HTTP start's ``StartQRChallengeRequest`` with the action named
    /// `actionCode`, and `challengeType`, which must be `QR_CODE`.
    package struct CreateChallenge: Encodable, Sendable, Hashable, WireDecodable, WireSchema {
        /// What the server answers anything but a `CREATE_CHALLENGE` with.
        package static let refusal = #"Send {"type":"CREATE_CHALLENGE","data":{...}}."#

        /// `CREATE_CHALLENGE`.
        package var type: String
        /// The start's fields, read by the QR start's own table.
        package var data: [String: JSONValue]?

        /// A message carrying `data`.
        package init(data: [String: JSONValue]?) {
            type = "CREATE_CHALLENGE"
            self.data = data
        }

        /// The fields, their limits and descriptions.
        package static let wireFields = WireFields<Self>(
            "The page starts a QR challenge over the WebSocket.", blank: { Self(data: nil) }, [
                .choice("type", \.type, maxLength: 32, allowed: ["CREATE_CHALLENGE"], absent: "", refusal: refusal,
                        "CREATE_CHALLENGE."),
                .object("data", \.data, maxBytes: 64 * 1024,
                        "The QR start's fields: actionCode (the HTTP start's action), custom, challengeType QR_CODE."),
            ])
    }

    /// `CHALLENGE_CREATED`: the challenge a `CREATE_CHALLENGE` started.
    package struct ChallengeCreated: Codable, Sendable, Hashable, WireSchema {
        /// The new challenge.
        package struct Challenge: Codable, Sendable, Hashable, WireSchema {
            /// The challenge.
            package var challengeId: String
            /// `QR_CODE`.
            package var challengeType: String
            /// Expiry (ISO-8601).
            package var expiresAt: String
            /// The text to render as the QR code (``QRPayload``).
            package var qrPayload: String
            /// `unclaimed`.
            package var state: String

            /// The fields and their descriptions.
            package static let wireFields = WireFields<Self>("The new challenge.", [
                .field("challengeId", \.challengeId, "The challenge."),
                .field("challengeType", \.challengeType, "QR_CODE."),
                .field("expiresAt", \.expiresAt, Timestamp.wireDescription),
                .field("qrPayload", \.qrPayload, "The text to render as the QR code."),
                .field("state", \.state, "unclaimed."),
            ])
        }

        /// `CHALLENGE_CREATED`.
        package var type = "CHALLENGE_CREATED"
        /// The challenge.
        package var data: Challenge

        /// The message for a new, unclaimed QR challenge.
        package init(challengeId: String, expiresAt: String, qrPayload: String) {
            data = Challenge(
                challengeId: challengeId, challengeType: "QR_CODE", expiresAt: expiresAt, qrPayload: qrPayload,
                state: "unclaimed")
        }

        /// The fields and their descriptions.
        package static let wireFields = WireFields<Self>("A CREATE_CHALLENGE started this challenge.", [
            .field("type", \.type, "CHALLENGE_CREATED."),
            .field("data", \.data, nil),
        ])
    }

    /// `STATE_CHANGE`: the watched challenge was claimed, approved or declined.
    package struct StateChange: Codable, Sendable, Hashable, WireSchema {
        /// The challenge's new state.
        package struct Change: Codable, Sendable, Hashable, WireSchema {
            /// The challenge.
            package var challengeId: String
            /// `claimed`, `approved` or `rejected`.
            package var state: String
            /// For `approved`: the token the page's backend validates.
            package var accessToken: String?

            /// The fields and their descriptions.
            package static let wireFields = WireFields<Self>("The challenge's new state.", [
                .field("challengeId", \.challengeId, "The challenge."),
                .field("state", \.state, "claimed, approved or rejected."),
                .optional("accessToken", \.accessToken, "For approved: the token the page's backend validates."),
            ])
        }

        /// `STATE_CHANGE`.
        package var type = "STATE_CHANGE"
        /// The new state.
        package var data: Change

        /// The message for `challengeId` now in `state`.
        package init(challengeId: String, state: String, accessToken: String? = nil) {
            data = Change(challengeId: challengeId, state: state, accessToken: accessToken)
        }

        /// The fields and their descriptions.
        package static let wireFields = WireFields<Self>("The watched challenge changed.", [
            .field("type", \.type, "STATE_CHANGE."),
            .field("data", \.data, nil),
        ])
    }

    /// `ERROR`: a message the server could not act on, or a start it refused; nothing was started.
    package struct Failure: Codable, Sendable, Hashable, WireSchema {
        /// Why.
        package struct Reason: Codable, Sendable, Hashable, WireSchema {
            /// The error code an HTTP start would answer, e.g. `invalid_request` or `rate_limited`.
            package var errorCode: String
            /// What went wrong, for a person.
            package var errorDescription: String
            /// For `rate_limited`: seconds until a start may succeed.
            package var retryAfter: Int?

            /// The fields and their descriptions.
            package static let wireFields = WireFields<Self>("Why nothing was started.", [
                .field("errorCode", \.errorCode, "The error code an HTTP start would answer."),
                .field("errorDescription", \.errorDescription, "What went wrong, for a person."),
                .optional("retryAfter", \.retryAfter, "For rate_limited: seconds until a start may succeed."),
            ])
        }

        /// `ERROR`.
        package var type = "ERROR"
        /// Why.
        package var data: Reason

        /// The message for a refusal.
        package init(errorCode: String, errorDescription: String, retryAfter: Int? = nil) {
            data = Reason(errorCode: errorCode, errorDescription: errorDescription, retryAfter: retryAfter)
        }

        /// The fields and their descriptions.
        package static let wireFields = WireFields<Self>("Nothing was started, and why.", [
            .field("type", \.type, "ERROR."),
            .field("data", \.data, nil),
        ])
    }
}
