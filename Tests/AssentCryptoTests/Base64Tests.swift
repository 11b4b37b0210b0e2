import AssentCrypto
import Testing
import Foundation

@Suite struct Base64Tests {
    /// RFC 4648 §10 test vectors.
    static let rfc4648: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]

    @Test func encodesRFC4648Vectors() {
        for (plain, encoded) in Self.rfc4648 {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.encodeURL(Array(plain.utf8)) == encoded.replacingOccurrences(of: "=", with: ""))
            #expect(Base64.decodeStrict(encoded) == Array(plain.utf8))
            #expect(Base64.decode(encoded) == Array(plain.utf8))
            #expect(Base64.decode(encoded.replacingOccurrences(of: "=", with: "")) == Array(plain.utf8))
        }
    }

    @Test func urlAlphabetDiffersOnlyInTwoCharacters() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF, 0xFE]
        #expect(Base64.encode(bytes) == "+/+//g==")
        #expect(Base64.encodeURL(bytes) == "-_-__g")
    }

    @Test func lenientDecodeAcceptsEitherAlphabetPaddingAndSpaceForPlus() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF, 0xFE]
        #expect(Base64.decode("+/+//g==") == bytes)
        #expect(Base64.decode("-_-__g") == bytes)
        #expect(Base64.decode("-/+_/g") == bytes)      // mixed alphabets
        #expect(Base64.decode(" /+//g==") == bytes)    // ' ' is a '+' mangled by query-string decoding
        #expect(Base64.decode(" _ __g") == bytes)
        #expect(Base64.decode("") == [])
    }

    @Test func lenientDecodeStillRejectsGarbage() {
        #expect(Base64.decode("Zm9v\n") == nil)        // line break
        #expect(Base64.decode("Zm9v!") == nil)
        #expect(Base64.decode("Zm=9v") == nil)         // padding in the middle
        #expect(Base64.decode("Z") == nil)             // impossible length
        #expect(Base64.decode("Zm9vY") == nil)         // impossible length
        #expect(Base64.decode("Zg=") == nil)           // padding that does not complete the group
        #expect(Base64.decode("Zg===") == nil)         // too much padding
        #expect(Base64.decode("Zm9v=") == nil)
        #expect(Base64.decode("====") == nil)
        #expect(Base64.decode("Zm9vé") == nil)         // non-ASCII
    }

    @Test func strictDecodeAcceptsOnlyTheCanonicalStandardEncoding() {
        #expect(Base64.decodeStrict("Zg==") == [0x66])
        #expect(Base64.decodeStrict("Zg") == nil)      // padding required
        #expect(Base64.decodeStrict("Zh==") == nil)    // non-zero unused bits
        #expect(Base64.decodeStrict("-_-__g==") == nil) // URL alphabet
        #expect(Base64.decodeStrict(" /+//g==") == nil)
        #expect(Base64.decodeStrict("Zm9v\n") == nil)
        #expect(Base64.decode("Zh==") == [0x66])       // the lenient decoder ignores unused bits
    }

    @Test func urlDecodeIsStrictBase64URL() {
        #expect(Base64.decodeURL("-_-__g") == [0xFB, 0xFF, 0xBF, 0xFE])
        #expect(Base64.decodeURL("-_-__g==") == nil)   // no padding in JOSE
        #expect(Base64.decodeURL("+/+//g") == nil)     // standard alphabet
        #expect(Base64.decodeURL("Zh") == nil)         // non-canonical
    }

    @Test func everyLengthRoundTrips() {
        for length in 0...80 {
            let bytes = SecureRandom.bytes(length)
            let standard = Base64.encode(bytes)
            let url = Base64.encodeURL(bytes)
            #expect(standard.count % 4 == 0)
            #expect(Base64.decodeStrict(standard) == bytes)
            #expect(Base64.decode(standard) == bytes)
            #expect(Base64.decode(url) == bytes)
            #expect(Base64.decodeURL(url) == bytes)
        }
    }
}
