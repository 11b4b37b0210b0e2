/// A request body type that reads itself from a JSON object: its field names, types and limits are written once, in
/// its ``init(reading:)``, whatever parses the JSON (the server's ``WireObject`` implementation).
package protocol WireDecodable: Sendable {
    /// Reads the value from `body`, throwing for the first field that breaks a rule.
    init(reading body: some WireObject) throws(WireDecodingError)
}
