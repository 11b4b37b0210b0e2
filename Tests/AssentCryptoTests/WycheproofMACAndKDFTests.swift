import AssentCrypto
import Testing
import AssentTestSupport

@Suite struct WycheproofHMACTests {
    struct Group: Decodable {
        let keySize: Int
        let tagSize: Int
        let tests: [Case]
    }

    struct Case: Decodable {
        let tcId: Int
        let key: String
        let msg: String
        let tag: String
        let result: WycheproofResult
    }

    /// Groups with tagSize 128 hold truncated tags: compare the first tagSize/8 bytes of the full MAC
    /// (in constant time). Full-size tags also go through `isValid`. No `acceptable` cases in this file.
    @Test func authenticatesAsWycheproofSays() throws {
        let file = try TestVectors.wycheproof("hmac_sha256_test.json", groups: Group.self)
        var counter = CaseCounter()
        var truncated = 0
        for group in file.testGroups {
            let tagByteCount = group.tagSize / 8
            for test in group.tests {
                counter.count(test.result)
                let key = [UInt8](hex: test.key)
                let message = [UInt8](hex: test.msg)
                let tag = [UInt8](hex: test.tag)
                #expect(key.count * 8 == group.keySize)
                let mac = HMACSHA256.authenticate(message, key: key)
                #expect(mac.count == 32)
                let matches = ConstantTime.equals(Array(mac.prefix(tagByteCount)), tag)
                #expect(matches == (test.result == .valid), "tcId \(test.tcId)")
                if tagByteCount == 32 {
                    #expect(HMACSHA256.isValid(tag, for: message, key: key) == (test.result == .valid), "tcId \(test.tcId)")
                } else {
                    truncated += 1
                    // A truncated tag is never accepted as a full MAC.
                    #expect(!HMACSHA256.isValid(tag, for: message, key: key), "tcId \(test.tcId)")
                }
            }
        }
        #expect(counter.total == file.numberOfTests)
        #expect(counter.valid == 66)
        #expect(counter.invalid == 108)
        #expect(counter.acceptable == 0)
        #expect(truncated == 87)
    }
}

@Suite struct WycheproofHKDFTests {
    struct Group: Decodable {
        let tests: [Case]
    }

    struct Case: Decodable {
        let tcId: Int
        let ikm: String
        let salt: String
        let info: String
        let size: Int
        let okm: String
        let result: WycheproofResult
    }

    /// Valid cases (including empty salt and the 8160-byte maximum) produce the OKM; the invalid ones
    /// ask for 8161 bytes and must throw `invalidInput`. No `acceptable` cases in this file.
    @Test func derivesAsWycheproofSays() throws {
        let file = try TestVectors.wycheproof("hkdf_sha256_test.json", groups: Group.self)
        var counter = CaseCounter()
        for group in file.testGroups {
            for test in group.tests {
                counter.count(test.result)
                let derive = {
                    try HKDFSHA256.deriveKey(inputKeyMaterial: [UInt8](hex: test.ikm), salt: [UInt8](hex: test.salt),
                                             info: [UInt8](hex: test.info), outputByteCount: test.size)
                }
                switch test.result {
                case .valid:
                    #expect(try derive() == [UInt8](hex: test.okm), "tcId \(test.tcId)")
                case .invalid, .acceptable:
                    #expect(throws: CryptoError(.invalidInput, ""), "tcId \(test.tcId)") { try derive() }
                }
            }
        }
        #expect(counter.total == file.numberOfTests)
        #expect(counter.valid == 83)
        #expect(counter.invalid == 3)
    }
}

@Suite struct WycheproofPBKDF2Tests {
    struct Group: Decodable {
        let tests: [Case]
    }

    struct Case: Decodable {
        let tcId: Int
        let flags: [String]
        let password: String
        let salt: String
        let iterationCount: Int
        let dkLen: Int
        let dk: String
        let result: WycheproofResult
    }

    static func load() throws -> [Case] {
        try TestVectors.wycheproof("pbkdf2_hmacsha1_test.json", groups: Group.self).testGroups.flatMap(\.tests)
    }

    /// All 64 cases are valid. The one with 16,777,216 iterations (RFC 6070) runs in its own test so it
    /// can run in parallel with the rest (about 5 s on this machine).
    @Test func derivesAsWycheproofSays() throws {
        let file = try TestVectors.wycheproof("pbkdf2_hmacsha1_test.json", groups: Group.self)
        var counter = CaseCounter()
        var ran = 0
        for test in file.testGroups.flatMap(\.tests) {
            counter.count(test.result)
            guard test.iterationCount < 1_000_000 else { continue }
            let dk = try PBKDF2.deriveSHA1(password: [UInt8](hex: test.password), salt: [UInt8](hex: test.salt),
                                           iterations: test.iterationCount, outputByteCount: test.dkLen)
            #expect((dk == [UInt8](hex: test.dk)) == (test.result == .valid), "tcId \(test.tcId)")
            ran += 1
        }
        #expect(counter.total == file.numberOfTests)
        #expect(counter.valid == 64)
        #expect(ran == 63)
    }

    /// Seconds of CPU: runs on its own thread (see ``offPool(_:)``).
    @Test func derivesTheSixteenMillionIterationCase() async throws {
        let large = try Self.load().filter { $0.iterationCount >= 1_000_000 }
        #expect(large.count == 1)
        for test in large {
            #expect(test.iterationCount == 16_777_216)
            let dk = try await offPool {
                try PBKDF2.deriveSHA1(password: [UInt8](hex: test.password), salt: [UInt8](hex: test.salt),
                                      iterations: test.iterationCount, outputByteCount: test.dkLen)
            }
            #expect(dk == [UInt8](hex: test.dk), "tcId \(test.tcId)")
        }
    }
}
