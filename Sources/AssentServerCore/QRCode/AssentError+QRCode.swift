extension AssentError.Code {
    /// An anonymous QR start named an action code the tenant does not allow anonymously
    /// (``TenantSettings/anonymousActionCodes``).
    package static let actionNotAllowed = AssentError.Code(wire: "action_not_allowed")
}
