import AssentWire
import Foundation
import Testing

/// The QR page's WebSocket messages (``QRCodeSocket``) against golden JSON: what the official web SDK sends and reads.
@Suite struct QRCodeSocketWireTests {
    private static func read(_ text: String) throws(WireDecodingError) -> QRCodeSocket.CreateChallenge {
        try QRCodeSocket.CreateChallenge(reading: JSONObjectFields(json: Array(text.utf8)))
    }

    @Test func `CREATE_CHALLENGE carries the start's fields as data`() throws {
        let fixture = try Data(contentsOf: JSONWriterTests.fixture("QRCodeSocket-CreateChallenge"))
        let message = try QRCodeSocket.CreateChallenge(reading: JSONObjectFields(json: Array(fixture)))
        #expect(message.type == "CREATE_CHALLENGE")
        #expect(message.data == ["challengeType": .string("QR_CODE"), "actionCode": .string("signIn"),
                                 "custom": .object(["kiosk": .string("lobby-2")])])
        #expect(try Self.read(#"{"type":"CREATE_CHALLENGE"}"#).data == nil)
        #expect(try Self.read(#"{"type":"CREATE_CHALLENGE","data":null}"#).data == nil)
    }

    @Test func `anything but a CREATE_CHALLENGE is refused, a data that is no object with its own reason`() {
        for text in [#"{}"#, #"{"type":"create_challenge"}"#, #"{"type":"PING","data":{}}"#] {
            #expect(throws: WireDecodingError(QRCodeSocket.CreateChallenge.refusal), "\(text)") { try Self.read(text) }
        }
        for data in ["5", #""QR_CODE""#, "[]", "true"] {
            #expect(throws: WireDecodingError.wrongType("data", "a JSON object"), "\(data)") {
                try Self.read(#"{"type":"CREATE_CHALLENGE","data":\#(data)}"#)
            }
        }
    }

    @Test func `the server's messages carry their type and data`() throws {
        let created = try Golden.roundTrip(QRCodeSocket.ChallengeCreated.self, "QRCodeSocket-ChallengeCreated")
        #expect(created.type == "CHALLENGE_CREATED" && created.data.state == "unclaimed" && created.data.challengeType == "QR_CODE")
        #expect(created == QRCodeSocket.ChallengeCreated(
            challengeId: created.data.challengeId, expiresAt: "2026-12-01T08:05:00.000Z", qrPayload: created.data.qrPayload))
        let approved = try Golden.roundTrip(QRCodeSocket.StateChange.self, "QRCodeSocket-StateChange")
        #expect(approved.type == "STATE_CHANGE" && approved.data.state == "approved" && approved.data.accessToken != nil)
        let claimed = try Golden.roundTrip(QRCodeSocket.StateChange.self, "QRCodeSocket-StateChange-claimed")
        #expect(claimed == QRCodeSocket.StateChange(challengeId: approved.data.challengeId, state: "claimed"))
        let limited = try Golden.roundTrip(QRCodeSocket.Failure.self, "QRCodeSocket-Failure")
        #expect(limited.type == "ERROR" && limited.data.errorCode == "rate_limited" && limited.data.retryAfter == 42)
        let refused = try Golden.roundTrip(QRCodeSocket.Failure.self, "QRCodeSocket-Failure-invalid")
        #expect(refused == QRCodeSocket.Failure(errorCode: "invalid_request", errorDescription: QRCodeSocket.CreateChallenge.refusal))
    }

    /// Byte for byte what the server sent before the tables: sorted keys, no space, slashes not escaped.
    @Test func `the messages are written with sorted keys and unescaped slashes`() {
        let created = QRCodeSocket.ChallengeCreated(
            challengeId: "c1", expiresAt: "2026-12-01T08:05:00.000Z", qrPayload: "assent://qr?tenant=t&challenge=c1")
        #expect(String(decoding: JSONWriter.encode(created), as: UTF8.self)
            == #"{"data":{"challengeId":"c1","challengeType":"QR_CODE","expiresAt":"2026-12-01T08:05:00.000Z","#
            + #""qrPayload":"assent://qr?tenant=t&challenge=c1","state":"unclaimed"},"type":"CHALLENGE_CREATED"}"#)
        #expect(String(decoding: JSONWriter.encode(QRCodeSocket.StateChange(challengeId: "c1", state: "claimed")), as: UTF8.self)
            == #"{"data":{"challengeId":"c1","state":"claimed"},"type":"STATE_CHANGE"}"#)
        let failure = QRCodeSocket.Failure(errorCode: "invalid_request", errorDescription: QRCodeSocket.CreateChallenge.refusal)
        #expect(String(decoding: JSONWriter.encode(failure), as: UTF8.self)
            == #"{"data":{"errorCode":"invalid_request","errorDescription":"Send {\"type\":\"CREATE_CHALLENGE\",\"data\":{...}}."},"type":"ERROR"}"#)
    }
}
