import AssentCrypto
import Testing

/// Every case of the official PowerAuth 3.x vectors (`Tests/Vectors/powerauth/`), each file counted so a loader that
/// reads nothing cannot pass.
@Suite struct PowerAuthVectorTests {
    @Test func masterSecretFromECDHBothWays() throws {
        let cases = try PowerAuthVectors.cases("compute-master-secret-key")
        #expect(cases.count == 20)
        for (index, vector) in cases.enumerated() {
            let device = try P256.PrivateKey(rawRepresentation: vector.bytes("devicePrivateKey"))
            let server = try P256.PrivateKey(rawRepresentation: vector.bytes("serverPrivateKey"))
            let devicePublic = try P256.PublicKey(x962: vector.bytes("devicePublicKey"))
            let serverPublic = try P256.PublicKey(x962: vector.bytes("serverPublicKey"))
            #expect(device.publicKey == devicePublic)
            #expect(server.publicKey == serverPublic)
            let expected = vector.bytes("masterSecretKey")
            #expect(try PowerAuth.masterSecret(privateKey: device, publicKey: serverPublic) == expected, "case \(index)")
            #expect(try PowerAuth.masterSecret(privateKey: server, publicKey: devicePublic) == expected, "case \(index)")
        }
    }

    @Test func derivedKeys() throws {
        let cases = try PowerAuthVectors.cases("compute-derived-keys")
        #expect(cases.count == 20)
        for (index, vector) in cases.enumerated() {
            let keys = try PowerAuthDerivedKeys(masterSecret: vector.bytes("masterSecretKey"))
            #expect(keys.possession == vector.bytes("signaturePossessionKey"), "case \(index)")
            #expect(keys.knowledge == vector.bytes("signatureKnowledgeKey"), "case \(index)")
            #expect(keys.biometry == vector.bytes("signatureBiometryKey"), "case \(index)")
            #expect(keys.transport == vector.bytes("transportKey"), "case \(index)")
            #expect(keys.vault == vector.bytes("vaultEncryptionKey"), "case \(index)")
        }
    }

    /// Runs a signature file: computes each case in `format` and checks that the server's look-ahead finds it at
    /// distance 0, and that one altered character is refused.
    private func checkSignatures(_ file: String, count: Int, format: (PowerAuthVectors.Case) -> PowerAuthSignatureFormat) throws -> [PowerAuthSignatureType: Int] {
        let cases = try PowerAuthVectors.cases(file)
        #expect(cases.count == count)
        var types: [PowerAuthSignatureType: Int] = [:]
        for (index, vector) in cases.enumerated() {
            let type = try #require(PowerAuthSignatureType(rawValue: vector.text("signatureType")))
            types[type, default: 0] += 1
            let keys = PowerAuthSignatureKeys(
                possession: vector.bytes("signaturePossessionKey"), knowledge: vector.bytes("signatureKnowledgeKey"),
                biometry: vector.bytes("signatureBiometryKey"))
            let counter = vector.bytes("counterData")
            let data = vector.bytes("data")
            let expected = vector.text("signature")
            let computed = try PowerAuthSignature.compute(type: type, keys: keys, counterData: counter, data: data, format: format(vector))
            #expect(computed == expected, "\(file) case \(index)")
            let match = try PowerAuthSignature.match(expected, type: type, keys: keys, counterData: counter, data: data,
                                                     format: format(vector), lookAhead: 1)
            #expect(match?.distance == 0 && match?.isValid == true, "\(file) case \(index)")
            #expect(match?.nextCounterData == PowerAuthCounter.next(counter))
        }
        return types
    }

    @Test func signaturesV31Base64() throws {
        let types = try checkSignatures("signatures-v31", count: 300) { _ in .base64 }
        #expect(types == [.possession: 100, .possessionKnowledge: 100, .possessionKnowledgeBiometry: 100])
    }

    @Test func signaturesV3Decimal() throws {
        let types = try checkSignatures("signatures-v3", count: 300) { _ in .decimal8 }
        #expect(types == [.possession: 100, .possessionKnowledge: 100, .possessionKnowledgeBiometry: 100])
    }

    @Test func signaturesOfflineDecimalWithComponentLength() throws {
        var lengths = Set<Int>()
        let types = try checkSignatures("signatures-offline", count: 200) { vector in
            let length = Int(vector.text("signatureComponentLength"))!
            lengths.insert(length)
            return .decimal(componentLength: length)
        }
        #expect(types == [.possession: 100, .possessionKnowledge: 100])
        #expect(lengths == Set(4...8))
    }

    @Test func statusBlobIV() throws {
        let cases = try PowerAuthVectors.cases("activation-status-blob-iv")
        #expect(cases.count == 32)
        for (index, vector) in cases.enumerated() {
            let iv = try PowerAuthStatusBlob.iv(transportKey: vector.bytes("transportKey"), challenge: vector.bytes("challenge"),
                                                nonce: vector.bytes("nonce"))
            #expect(iv == vector.bytes("iv"), "case \(index)")
        }
    }

    @Test func statusBlobDataAndCounterDistance() throws {
        let cases = try PowerAuthVectors.cases("activation-status-blob-data")
        #expect(cases.count == 8)
        var distances = Set<Int>()
        for (index, vector) in cases.enumerated() {
            let transport = vector.bytes("transportKey")
            let challenge = vector.bytes("challenge")
            let nonce = vector.bytes("nonce")
            let encrypted = vector.bytes("encryptedStatusBlob")
            let status = try PowerAuthStatusBlob.decrypt(encrypted, transportKey: transport, challenge: challenge, nonce: nonce)
            #expect(status.status == UInt8(vector.text("activationStatus")), "case \(index)")
            #expect(status.currentVersion == UInt8(vector.text("currentVersion")))
            #expect(status.upgradeVersion == UInt8(vector.text("upgradeVersion")))
            #expect(status.failedAttempts == UInt8(vector.text("failedAttempts")))
            #expect(status.maxFailedAttempts == UInt8(vector.text("maxFailedAttempts")))
            #expect(status.lookAhead == UInt8(vector.text("ctrLookAhead")))
            #expect(status.counterByte == UInt8(vector.text("ctrByte")))
            #expect(status.counterDataHash == vector.bytes("ctrDataHash"))
            let expectedDistance = Int(vector.text("counterDistance"))!
            distances.insert(expectedDistance)
            let distance = try PowerAuthCounter.distance(from: vector.bytes("ctrData"), toHash: status.counterDataHash,
                                                         transportKey: transport, limit: 64)
            #expect(distance == expectedDistance, "case \(index)")
            // The hash the server would put in for that counter value is the one in the blob.
            let serverCounter = PowerAuthCounter.advance(vector.bytes("ctrData"), by: expectedDistance)
            #expect(try PowerAuthStatusBlob.counterDataHash(transportKey: transport, counterData: serverCounter) == status.counterDataHash)
            // Encrypting the parsed status decrypts back to it (the vectors' reserved bytes are not zero, so the
            // ciphertext itself differs).
            let again = try PowerAuthStatusBlob.encrypt(status, transportKey: transport, challenge: challenge, nonce: nonce)
            #expect(try PowerAuthStatusBlob.decrypt(again, transportKey: transport, challenge: challenge, nonce: nonce) == status)
        }
        #expect(distances.count > 1)
    }

    @Test func activationFingerprintV3() throws {
        let cases = try PowerAuthVectors.cases("public-key-fingerprint-v3")
        #expect(cases.count == 100)
        for (index, vector) in cases.enumerated() {
            let device = try P256.PublicKey(x962: vector.bytes("devicePublicKey"))
            let server = try P256.PublicKey(x962: vector.bytes("serverPublicKey"))
            #expect(PowerAuthFingerprint.xCoordinate(device) == vector.bytes("devicePublicKeyCoordX"), "case \(index)")
            #expect(PowerAuthFingerprint.xCoordinate(server) == vector.bytes("serverPublicKeyCoordX"), "case \(index)")
            let fingerprint = PowerAuthFingerprint.compute(devicePublicKey: device, activationID: vector.text("activationId"),
                                                           serverPublicKey: server)
            #expect(fingerprint == vector.text("fingerprint"), "case \(index)")
        }
    }
}
