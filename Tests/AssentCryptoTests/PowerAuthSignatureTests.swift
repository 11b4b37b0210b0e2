import AssentCrypto
import Testing

/// Behaviour beyond the vectors: the one-factor types, the look-ahead search, formats and request normalization.
@Suite struct PowerAuthSignatureTests {
    let keys = PowerAuthSignatureKeys(possession: Array(repeating: 1, count: 16), knowledge: Array(repeating: 2, count: 16),
                                      biometry: Array(repeating: 3, count: 16))
    let counter = Array(repeating: UInt8(7), count: 16)

    @Test func oneFactorTypesUseTheirOwnKey() throws {
        let data = Array("x".utf8)
        let knowledge = try PowerAuthSignature.compute(type: .knowledge, keys: keys, counterData: counter, data: data)
        let possessionWithKnowledgeKey = try PowerAuthSignature.compute(
            type: .possession, keys: PowerAuthSignatureKeys(possession: keys.knowledge), counterData: counter, data: data)
        #expect(knowledge == possessionWithKnowledgeKey)
        #expect(knowledge.count == 24)
        #expect(try PowerAuthSignature.compute(type: .possessionKnowledgeBiometry, keys: keys, counterData: counter, data: data).count == 64)
    }

    @Test func missingFactorKeyIsAnError() {
        #expect(throws: CryptoError(.invalidKey, "")) {
            try PowerAuthSignature.compute(type: .possessionBiometry, keys: PowerAuthSignatureKeys(possession: keys.possession),
                                           counterData: counter, data: [])
        }
        #expect(throws: CryptoError(.invalidInput, "")) {
            try PowerAuthSignature.format([[UInt8](repeating: 0, count: 32)], as: .decimal(componentLength: 9))
        }
    }

    @Test func lookAheadFindsDistanceNineteenButNotTwenty() throws {
        let data = Array("body".utf8)
        let at19 = try PowerAuthSignature.compute(type: .possessionKnowledge, keys: keys,
                                                  counterData: PowerAuthCounter.advance(counter, by: 19), data: data)
        let match = try PowerAuthSignature.match(at19, type: .possessionKnowledge, keys: keys, counterData: counter, data: data)
        #expect(match?.distance == 19)
        #expect(match?.nextCounterData == PowerAuthCounter.advance(counter, by: 20))
        let at20 = try PowerAuthSignature.compute(type: .possessionKnowledge, keys: keys,
                                                  counterData: PowerAuthCounter.advance(counter, by: 20), data: data)
        #expect(try PowerAuthSignature.match(at20, type: .possessionKnowledge, keys: keys, counterData: counter, data: data) == nil)
    }

    @Test func satisfiesComparesFactorSets() {
        #expect(PowerAuthSignatureType.possessionKnowledgeBiometry.satisfies(.possessionBiometry))
        #expect(PowerAuthSignatureType.possessionBiometry.satisfies(.possessionBiometry))
        #expect(!PowerAuthSignatureType.possession.satisfies(.possessionBiometry))
        #expect(!PowerAuthSignatureType.possessionKnowledge.satisfies(.possessionBiometry))
        #expect(!PowerAuthSignatureType.possession.countsFailedAttempts)
        #expect(!PowerAuthSignatureType.knowledge.countsFailedAttempts && !PowerAuthSignatureType.biometry.countsFailedAttempts)
        #expect(PowerAuthSignatureType.possessionKnowledge.countsFailedAttempts)
        #expect(PowerAuthSignatureType.possessionKnowledgeBiometry.countsFailedAttempts)
    }

    @Test(arguments: [PowerAuthSignatureFormat.base64, .decimal8])
    func possessionComponentIsSeparable(format: PowerAuthSignatureFormat) throws {
        let data = Array("body".utf8)
        let at3 = PowerAuthCounter.advance(counter, by: 3)
        let right = try PowerAuthSignature.compute(type: .possessionKnowledge, keys: keys, counterData: at3, data: data, format: format)
        let full = try #require(try PowerAuthSignature.match(right, type: .possessionKnowledge, keys: keys, counterData: counter,
                                                              data: data, format: format))
        #expect(full.isValid && full.distance == 3 && full.nextCounterData == PowerAuthCounter.advance(counter, by: 4))
        // A wrong knowledge key (a wrong PIN): the possession component still verifies, at the counter value used.
        var wrongPIN = keys
        wrongPIN.knowledge = Array(repeating: 9, count: 16)
        let wrong = try PowerAuthSignature.compute(type: .possessionKnowledge, keys: wrongPIN, counterData: at3, data: data, format: format)
        let partial = try #require(try PowerAuthSignature.match(wrong, type: .possessionKnowledge, keys: keys, counterData: counter,
                                                                 data: data, format: format))
        #expect(partial.extent == .possessionOnly && partial.distance == 3)
        #expect(partial.nextCounterData == PowerAuthCounter.advance(counter, by: 4))
        // Past the counter value it used, nothing of it verifies: a replay matches nothing.
        #expect(try PowerAuthSignature.match(wrong, type: .possessionKnowledge, keys: keys, counterData: partial.nextCounterData,
                                             data: data, format: format) == nil)
        // Over other data, or with a wrong possession key, nothing verifies.
        #expect(try PowerAuthSignature.match(wrong, type: .possessionKnowledge, keys: keys, counterData: counter,
                                             data: Array("other".utf8), format: format) == nil)
        var stranger = wrongPIN
        stranger.possession = Array(repeating: 8, count: 16)
        let madeUp = try PowerAuthSignature.compute(type: .possessionKnowledgeBiometry, keys: stranger, counterData: at3, data: data,
                                                    format: format)
        #expect(try PowerAuthSignature.match(madeUp, type: .possessionKnowledgeBiometry, keys: keys, counterData: counter,
                                             data: data, format: format) == nil)
        // A type without a possession component never matches partially.
        let knowledge = try PowerAuthSignature.compute(type: .knowledge, keys: wrongPIN, counterData: at3, data: data, format: format)
        #expect(try PowerAuthSignature.match(knowledge, type: .knowledge, keys: keys, counterData: counter, data: data,
                                             format: format) == nil)
    }

    @Test func canonicalQuerySortsAndFormEncodes() {
        #expect(PowerAuthRequestData.canonicalQuery(rawQuery: "b=2&a=x+y&a=%C3%A9&c=*.-_~") == "a=x+y&a=%C3%A9&b=2&c=*.-_%7E")
        #expect(PowerAuthRequestData.canonicalQuery(rawQuery: "") == "")
        #expect(PowerAuthRequestData.canonicalQuery(rawQuery: "a=%G1") == nil)
        #expect(PowerAuthRequestData.canonicalQuery([("z", "1"), ("y", "a b")]) == "y=a+b&z=1")
    }

    @Test func emptyBodyGivesAnEmptyField() {
        let data = PowerAuthRequestData.normalized(method: "post", uriID: "/pa/x", nonce: Array(repeating: 0, count: 16), body: [],
                                                   applicationSecret: "S")
        #expect(String(decoding: data, as: UTF8.self) == "POST&L3BhL3g=&AAAAAAAAAAAAAAAAAAAAAA==&&S")
    }
}

/// The look-ahead's own HMAC-SHA256 agrees with the library's for keys and messages of every size that matters.
@Suite struct PowerAuthHMACTests {
    @Test func matchesHMACSHA256() {
        for keyLength in [0, 1, 16, 32, 63, 64, 65, 100] {
            for messageLength in [0, 1, 16, 55, 56, 64, 200] {
                let key = SecureRandom.bytes(keyLength)
                let message = SecureRandom.bytes(messageLength)
                #expect(PowerAuthSignature.hmacForTesting(message, key: key) == HMACSHA256.authenticate(message, key: key),
                        "key \(keyLength), message \(messageLength)")
            }
        }
    }
}
