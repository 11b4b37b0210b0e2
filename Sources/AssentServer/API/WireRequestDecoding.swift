package import AssentWire

/// ``RequestDecoding`` over `AssentWire`'s own ``JSONReader`` (what `assentd` uses): one pass over the body into its
/// members, read in place by ``JSONObjectFields``. Stricter than the Foundation-based decoder the tests hold it against
/// where JSON is ambiguous (a key twice, nesting deeper than ``JSONReader/maxDepth``, numbers too large for a
/// `Double`); otherwise the two read every request type alike.
package struct WireRequestDecoding: RequestDecoding {
    package init() {}

    package func decode<T: WireDecodable>(_ type: T.Type, json: [UInt8]) throws(WireDecodingError) -> T {
        try T(reading: try JSONObjectFields(json: json))
    }
}
