import AssentServerCore
import AssentWire
import Foundation
import AssentServerCore

/// How the server API commands reach `assentd`: the shared options, the client they make, and one call with its
/// output rules (200: the body as received with `--json`, key fields otherwise; anything else: the server's error).
enum ServerConnection {
    /// Where `assentd` listens by default.
    static let defaultURL = "http://127.0.0.1:8420"

    /// `--url` and `--secret`, which every server API command takes.
    static let options: [Option] = [
        .optional(
            "--url", "BASE", "assentd's base URL; /v1/... is appended (default \(defaultURL))", environment: "ASSENT_URL"),
        .optional(
            "--secret", "KEY", "the tenant's secret key; prefer the environment variable (flags show in ps)",
            environment: "ASSENT_SECRET_KEY"),
    ]

    /// A client from `--url` / `ASSENT_URL` and `ASSENT_SECRET_KEY` / `--secret`; warns when the key came as a flag.
    static func client(_ invocation: Invocation) throws -> ServerAPIClient {
        guard let secret = invocation.options.string("--secret") else {
            throw CLIError.usage("no secret key: set ASSENT_SECRET_KEY (or pass --secret)")
        }
        if invocation.options.isGiven("--secret") {
            Output.warning(
                "--secret is visible to other users of this machine (ps, /proc); prefer ASSENT_SECRET_KEY")
        }
        return try ServerAPIClient(
            baseURL: invocation.options.string("--url") ?? defaultURL, secretKey: secret, version: AssentVersion.current)
    }

    /// Sends one request to `endpoint` (its `{...}` path parameters filled with `parameters`, in order) and prints the answer: with `--json` the body as received, otherwise what `human` makes of
    /// the body decoded as `T`. A non-200 answer becomes a failure carrying the server's `errorCode` and description.
    /// `refuse` may turn a 200 answer into a failure (it sees the headers; with `--json` the body is still printed).
    static func call<T: Decodable>(
        _ invocation: Invocation, _ endpoint: Endpoint, _ parameters: [String], body: [String: JSONValue]? = nil,
        decoding type: T.Type, refuse: (ServerAPIClient.Response) throws -> Void = { _ in }, human: (T) -> String
    ) async throws {
        let client = try client(invocation)
        let response = try await client.send(endpoint, parameters, body: body)
        guard response.status == 200 else { throw error(from: response) }
        try refuse(response)
        guard (try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])) != nil else {
            throw CLIError.failure(
                "\(endpoint.method) \(client.baseURL)/v1/... answered 200 without a JSON body", errorCode: "unexpected_response")
        }
        try invocation.output.result(json: response.text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            do {
                return human(try JSONDecoder().decode(T.self, from: response.body))
            } catch {
                throw CLIError.failure(
                    "unexpected answer from the server (\(ErrorText.describe(error))); --json prints it as received",
                    errorCode: "unexpected_response")
            }
        }
    }

    /// The failure for a non-200 answer: `errorCode: errorDescription` from the error envelope, as leniently as the
    /// official SDKs read it.
    static func error(from response: ServerAPIClient.Response) -> CLIError {
        let parsed = try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])
        let code: String
        let description: String
        if let envelope = try? JSONDecoder().decode(ErrorResponse.self, from: response.body) {
            code = envelope.errorCode
            description = envelope.errorDescription
        } else if let object = parsed as? [String: Any] {
            code = (object["errorCode"] as? String) ?? (object["error"] as? String) ?? "http_\(response.status)"
            description = (object["errorDescription"] as? String) ?? (object["error"] as? String)
                ?? "HTTP status \(response.status)"
        } else {
            code = "http_\(response.status)"
            let text = response.text.trimmingCharacters(in: .whitespacesAndNewlines)
            description = "HTTP status \(response.status)" + (text.isEmpty ? "" : ": " + String(text.prefix(200)))
        }
        // The server API's extra `hint` (beside Authsignal's exact wording), e.g. which header a 401 expected.
        let hint = ((parsed as? [String: Any])?["hint"] as? String).map { " " + $0 } ?? ""
        return CLIError(
            .failure, "\(code): \(description)\(hint)", errorCode: code,
            jsonBody: parsed == nil ? nil : response.text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A `--custom`-style option's value: a JSON object. Read with `JSONDecoder`, which keeps `1` a number and
    /// `true` a boolean (on Linux `JSONSerialization` gives both as `NSNumber`s that also pass `is Bool`).
    static func jsonObject(_ text: String, option: String) throws -> [String: JSONValue] {
        guard let object = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?.objectValue else {
            throw CLIError.usage("\(option) must be a JSON object, e.g. '{\"plan\":\"pro\"}', got '\(text)'")
        }
        return object
    }
}
