import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation

/// Turning results and errors into HTTP answers.
enum APIResponses {
    /// A 200 JSON answer, written by the type itself (``WireEncodable``): the hot paths' responses.
    static func ok<T: WireEncodable & Encodable>(_ value: T) -> HTTPResponse {
        .json(200, JSONWriter.encode(value))
    }

    /// A 200 JSON answer through `JSONEncoder`, for the types without a ``WireEncodable`` conformance.
    static func ok<T: Encodable>(_ value: T) -> HTTPResponse {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            return .json(200, Array(try encoder.encode(value)))
        } catch {
            return .error(500, code: AssentError.Code.internalError.wire, description: "The response could not be encoded.")
        }
    }

    /// A route handler running `body` and answering any error it throws with the JSON error envelope.
    static func handler(
        logger: Logger, _ body: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) -> Router.Handler {
        { request, _ in
            do {
                return try await body(request)
            } catch {
                return failure(error, request: request, logger: logger)
            }
        }
    }

    /// The JSON error answer for `error`. Details of unexpected failures go to the log, never to the client.
    static func failure(_ error: any Error, request: HTTPRequest, logger: Logger) -> HTTPResponse {
        switch error {
        case let error as AssentError:
            var response = HTTPResponse.error(
                error.code.status, code: error.code.wire, description: error.reason, hint: error.hint)
            if let seconds = error.retryAfterSeconds { response.headers.replace("Retry-After", String(seconds)) }
            return response
        case let error as StoreError where error.code == .busy:
            logger.repeatedWarning("database busy", ["requestId": .string(request.requestID), "error": .string(error.description)])
            return .error(503, code: AssentError.Code.unavailable.wire, description: "The database is busy; try again.")
        default:
            logger.log(.error, "request failed", ["requestId": .string(request.requestID), "error": .string(String(describing: error))])
            return .error(500, code: AssentError.Code.internalError.wire, description: "Something went wrong inside Assent.")
        }
    }
}
