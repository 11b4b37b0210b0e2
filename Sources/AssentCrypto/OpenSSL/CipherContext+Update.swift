#if canImport(COpenSSL)
internal import COpenSSL

extension CipherContext {
    /// Runs `EVP_CipherUpdate` over `input` (and `EVP_CipherFinal_ex` if `finalize`), returning the output.
    ///
    /// `reserving` is an upper bound on the output size. A failing final step is reported with
    /// `finalFailure` (CBC decryption reports bad padding there).
    func update(
        _ input: [UInt8],
        reserving capacity: Int,
        finalize: Bool,
        operation: String,
        finalFailure: CryptoError.Code = .internalFailure
    ) throws -> [UInt8] {
        guard input.count <= Int(Int32.max) - AES.blockByteCount else {
            throw CryptoError(.invalidInput, "\(operation): input too long")
        }
        return try [UInt8](unsafeUninitializedCapacity: max(capacity, 1)) { out, initialized in
            initialized = 0
            var written: Int32 = 0
            if !input.isEmpty {
                let ok = input.withUnsafeBufferPointer { input in
                    EVP_CipherUpdate(pointer, out.baseAddress, &written, input.baseAddress, Int32(input.count))
                }
                guard ok == 1 else { throw CryptoError.openSSL("\(operation) (update)") }
                initialized = Int(written)
            }
            if finalize {
                var finalWritten: Int32 = 0
                guard EVP_CipherFinal_ex(pointer, out.baseAddress! + initialized, &finalWritten) == 1 else {
                    throw CryptoError.openSSL("\(operation) (final)", code: finalFailure)
                }
                initialized += Int(finalWritten)
            }
        }
    }
}

#endif
