/// An activation's status for its device (``ActivationService/status(tenant:activationID:challenge:)``): PowerAuth's
/// status blob encrypted under the activation's transport key, and the nonce it was encrypted with.
package struct ActivationStatusBlob: Sendable, Hashable {
    /// The encrypted status blob.
    package var encrypted: [UInt8]
    /// Its 16-byte nonce.
    package var nonce: [UInt8]
}
