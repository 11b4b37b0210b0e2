import Assent
import AssentCrypto
import AssentSync
import AssentWire

/// An ``Attester`` for tests: records what it is asked and answers a statement naming the challenge (or another
/// one), an assertion, or a failure.
final class FakeAttester: Attester {
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the platform refused to attest" }
    }

    struct Calls {
        var attest: [(challenge: String, bindingHash: [UInt8])] = []
        var assertion: [[UInt8]] = []
    }

    private let calls = AssentLock(Calls())
    let assertionText: String?
    let fails: Bool
    let statementChallenge: String?

    init(assertion: String? = nil, fails: Bool = false, statementChallenge: String? = nil) {
        assertionText = assertion
        self.fails = fails
        self.statementChallenge = statementChallenge
    }

    var recorded: Calls { calls.withLock { $0 } }

    func attest(challenge: String, bindingHash: [UInt8]) async throws -> AttestationStatement {
        calls.withLock { $0.attest.append((challenge, bindingHash)) }
        if fails { throw Refusal() }
        return AttestationStatement(
            format: "android-key", challenge: statementChallenge ?? challenge, certificateChain: [Base64.encode(bindingHash)])
    }

    func assertion(clientDataHash: [UInt8]) async throws -> String? {
        calls.withLock { $0.assertion.append(clientDataHash) }
        if fails { throw Refusal() }
        return assertionText
    }
}
