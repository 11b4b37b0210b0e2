extension Array where Element == UInt8 {
    /// Calls `body` with a pointer to the bytes that is never nil, even for an empty array
    /// (OpenSSL and CommonCrypto entry points may treat a NULL pointer as "no value", or an error, even when the length
    /// is 0).
    func withNonNullBytes<R, E: Error>(_ body: (UnsafePointer<UInt8>, Int) throws(E) -> R) throws(E) -> R {
        if isEmpty {
            var placeholder: UInt8 = 0
            return try withUnsafePointer(to: &placeholder) { (pointer) throws(E) -> R in try body(pointer, 0) }
        }
        return try withUnsafeBufferPointer { (buffer) throws(E) -> R in try body(buffer.baseAddress!, buffer.count) }
    }
}
