import AssentCrypto
import Testing

@Suite struct ConstantTimeTests {
    @Test func equalsComparesContentAndLength() {
        #expect(ConstantTime.equals([], []))
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([0, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.equals([], [0]))
        let long = SecureRandom.bytes(1000)
        var flipped = long
        flipped[999] ^= 0x80
        #expect(ConstantTime.equals(long, long))
        #expect(!ConstantTime.equals(long, flipped))
    }
}

@Suite struct CryptoErrorTests {
    @Test func equalityAndHashingUseOnlyTheCode() {
        let a = CryptoError(.invalidKey, "one reason")
        let b = CryptoError(.invalidKey, "another reason")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != CryptoError(.invalidInput, "one reason"))
        #expect(Set([a, b]).count == 1)
    }

    @Test func descriptionNamesCodeReasonAndLocation() {
        let error = CryptoError(.expiredToken, "token expired")
        #expect(error.description.hasPrefix("CryptoError.expiredToken: token expired ("))
        #expect(error.file.hasSuffix("ConstantTimeAndErrorTests.swift"))
        #expect(error.line > 0)
    }

    @Test func allCodesAreDistinct() {
        let codes: [CryptoError.Code] = [.invalidKey, .invalidSignature, .invalidInput, .authenticationFailure,
                                         .internalFailure, .invalidToken, .expiredToken]
        #expect(Set(codes).count == codes.count)
    }
}
