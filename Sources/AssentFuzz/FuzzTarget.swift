/// One parser a stranger can feed, as libFuzzer sees it: a name (`make fuzz` and the seed corpus
/// `Tests/Fuzz/Corpus/<name>/` use it) and a function that takes any bytes and must return for every input.
///
/// A crash, a trap or a failed `precondition` (the invariants a target checks) is a finding; a parser refusing its
/// input is not.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable ([UInt8]) -> Void

    /// Every target, in the order `make fuzz` runs them.
    static let all: [FuzzTarget] = [
        .jsonBody, .jsonReader, .powerAuthHeader, .webSocketFrames, .basicCredentials, .token, .qrPayload, .spki, .derSignature,
        .cbor, .der,
    ]

    /// The target called `name`, if there is one.
    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
