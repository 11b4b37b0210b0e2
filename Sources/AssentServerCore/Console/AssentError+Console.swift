extension AssentError.Code {
    /// A console form post from another site, or without its session's CSRF token.
    package static let crossSiteRequest = AssentError.Code(wire: "cross_site_request")
}
