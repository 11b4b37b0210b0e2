/// The logical URI ids of the endpoints Assent's SDK signs (the `URI_ID` of the normalized data).
public enum PowerAuthURI {
    /// `POST /v1/client/vault/unlock`.
    public static let vaultUnlock = "/pa/vault/unlock"
}
