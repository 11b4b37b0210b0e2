/// Whose sealed PowerAuth secret a re-seal is given (``ActivationStore/resealPowerAuthSecrets(_:)``), so the caller
/// can name the context it was sealed for.
package enum SealedSecretOwner: Sendable, Hashable {
    /// The master private key of the tenant's PowerAuth application.
    case application(tenantID: String)
    /// The master secret of an activation.
    case activation(id: String)
}
