import Testing

@testable import AssentAttestation

/// The CBOR reader accepts the subset App Attest uses and refuses the rest with `malformed`.
@Suite struct CBORReaderTests {
    private func refused(_ bytes: [UInt8]) -> Bool {
        (try? CBORReader.decode(bytes)) == nil
    }

    @Test func readsEachMajorType() throws {
        #expect(try CBORReader.decode([0x00]) == .unsigned(0))
        #expect(try CBORReader.decode([0x18, 0x64]) == .unsigned(100))
        #expect(try CBORReader.decode([0x1b, 0, 0, 0, 0xe8, 0xd4, 0xa5, 0x10, 0x00]) == .unsigned(1_000_000_000_000))
        #expect(try CBORReader.decode([0x26]).integer == -7)
        #expect(try CBORReader.decode([0x38, 0x63]).integer == -100)
        #expect(try CBORReader.decode([0x43, 1, 2, 3]) == .bytes([1, 2, 3]))
        #expect(try CBORReader.decode([0x63, 0x66, 0x6d, 0x74]) == .text("fmt"))
        #expect(try CBORReader.decode([0x82, 0x01, 0x02]) == .array([.unsigned(1), .unsigned(2)]))
        let map = try CBORReader.decode([0xa2, 0x01, 0x02, 0x20, 0x41, 0xff])
        #expect(map[.unsigned(1)] == .unsigned(2))
        #expect(map[.negative(0)] == .bytes([0xff]))
    }

    @Test func refusesWhatAppAttestDoesNotUse() {
        #expect(refused([0x9f, 0x01, 0xff]))  // indefinite array
        #expect(refused([0x5f, 0x41, 0x00, 0xff]))  // indefinite byte string
        #expect(refused([0xc0, 0x00]))  // tag
        #expect(refused([0xf5]))  // true
        #expect(refused([0xfb, 0, 0, 0, 0, 0, 0, 0, 0]))  // float
        #expect(refused([0x1c]))  // reserved additional information
    }

    @Test func refusesLiesAboutLengthsAndStructure() {
        #expect(refused([]))
        #expect(refused([0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))  // 2^64-1 bytes
        #expect(refused([0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))  // 2^64-1 items
        #expect(refused([0x43, 1, 2]))  // truncated
        #expect(refused([0x01, 0x02]))  // trailing bytes
        #expect(refused([0xa2, 0x01, 0x02, 0x01, 0x03]))  // a repeated key
        #expect(refused([0x62, 0xc3, 0x28]))  // not UTF-8
        #expect(refused([UInt8](repeating: 0x81, count: CBORReader.maximumDepth + 2) + [0x00]))  // too deep
        #expect(!refused([UInt8](repeating: 0x81, count: CBORReader.maximumDepth) + [0x00]))
    }

    @Test func theErrorIsMalformed() {
        #expect(throws: AttestationError(.malformed, "")) { try CBORReader.decode([0xff]) }
    }
}
