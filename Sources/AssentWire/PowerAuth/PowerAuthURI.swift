/// The logical URI ids of the endpoints Assent's SDK signs (the `URI_ID` of the normalized data).
package enum PowerAuthURI {
    /// `POST /v1/client/vault/unlock`.
    package static let vaultUnlock = "/pa/vault/unlock"
}
