import Testing

@testable import AssentAttestation

/// The DER reader reads what certificates and KeyDescription use, in the one DER encoding, and refuses the rest.
@Suite struct DERReaderTests {
    @Test func readsPrimitives() throws {
        #expect(try DERReader.parse([0x02, 0x01, 0x7f]).integer() == 127)
        #expect(try DERReader.parse([0x02, 0x02, 0x00, 0x80]).integer() == 128)
        #expect(try DERReader.parse([0x02, 0x01, 0xff]).integer() == -1)
        #expect(try DERReader.parse([0x0a, 0x01, 0x02]).enumerated() == 2)
        #expect(try DERReader.parse([0x01, 0x01, 0xff]).boolean())
        #expect(try DERReader.parse([0x04, 0x02, 0xab, 0xcd]).octetString() == [0xab, 0xcd])
        #expect(try DERReader.parse([0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0xd6, 0x79, 0x02, 0x01, 0x11]).objectIdentifier()
            == "1.3.6.1.4.1.11129.2.1.17")
        #expect(try DERReader.parse([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x08, 0x02]).objectIdentifier()
            == "1.2.840.113635.100.8.2")
    }

    @Test func readsConstructedAndContextTags() throws {
        // App Attest's nonce extension: SEQUENCE { [1] EXPLICIT OCTET STRING }.
        let nonce = [UInt8](repeating: 7, count: 32)
        let fields = try DERReader.parse([0x30, 0x24, 0xa1, 0x22, 0x04, 0x20] + nonce).sequence()
        #expect(try fields[0].explicit(1).octetString() == nonce)
        // [704] in high-tag-number form (bf 85 40), and an IMPLICIT [2] INTEGER.
        let high = try DERReader.parse([0xbf, 0x85, 0x40, 0x03, 0x02, 0x01, 0x05])
        #expect(high.tagNumber == 704 && high.isContext(704))
        #expect(try high.explicit(704).integer() == 5)
        #expect(try DERReader.parse([0x82, 0x01, 0x09]).implicit(2, as: DERNode.integer).integer() == 9)
        #expect(try DERReader.parse([0x31, 0x06, 0x04, 0x01, 0x01, 0x04, 0x01, 0x02]).set().count == 2)
        // A long-form length.
        let long = try DERReader.parse([0x04, 0x81, 0x80] + [UInt8](repeating: 1, count: 128))
        #expect(try long.octetString().count == 128)
    }

    @Test func refusesNonDEREncodings() {
        let refusals: [[UInt8]] = [
            [],
            [0x04, 0x81, 0x01, 0x00],  // a long length that fits the short form
            [0x04, 0x82, 0x00, 0x80] + [UInt8](repeating: 0, count: 128),  // a leading zero length byte
            [0x04, 0x80],  // indefinite length
            [0x04, 0x05, 0x00],  // runs past the end
            [0xbf, 0x80, 0x01, 0x00],  // non-minimal high tag
            [0xbf, 0x1e, 0x00],  // high form for a low tag
            [0x04, 0x00, 0x04, 0x00],  // two elements
        ]
        for bytes in refusals {
            #expect((try? DERReader.parse(bytes)) == nil, "\(bytes)")
        }
        // Contents are checked by the accessor that reads them.
        #expect((try? DERReader.parse([0x02, 0x00]).integer()) == nil)  // empty INTEGER
        #expect((try? DERReader.parse([0x02, 0x02, 0x00, 0x01]).integer()) == nil)  // non-minimal INTEGER
        #expect((try? DERReader.parse([0x02, 0x02, 0xff, 0x80]).integerBytes()) == nil)  // non-minimal negative
        #expect((try? DERReader.parse([0x06, 0x02, 0x2b, 0x86]).objectIdentifier()) == nil)  // truncated OID arc
        #expect((try? DERReader.parse([0x06, 0x02, 0x2b, 0x80, 0x01]).objectIdentifier()) == nil)  // non-minimal arc
        #expect((try? DERReader.parse([0x01, 0x01, 0x01]).boolean()) == nil)  // BOOLEAN neither 00 nor ff
        #expect((try? DERReader.parse([0x02, 0x09, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]).integer()) == nil)  // above 64 bits
        #expect((try? DERReader.parse([0x04, 0x01, 0x00]).integer()) == nil)  // wrong type
    }

    @Test func boundsNesting() {
        var deep: [UInt8] = [0x05, 0x00]
        for _ in 0...DERReader.maximumDepth { deep = [0x30, UInt8(deep.count)] + deep }
        #expect(throws: AttestationError(.malformed, "")) {
            var node = try DERReader.parse(deep)
            while node.constructed { node = try node.sequence()[0] }
        }
    }
}
