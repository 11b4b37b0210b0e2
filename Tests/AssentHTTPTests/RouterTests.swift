import Testing
@testable import AssentHTTP

@Suite struct RouterTests {
    private static func router() -> Router {
        var router = Router()
        router.add("GET", "/v1/users/{userId}/actions/{action}/{idempotencyKey}") { _, _ in .plain("action") }
        router.add("POST", "/v1/users/{userId}/actions/{action}/{idempotencyKey}") { _, _ in .plain("post") }
        router.add("GET", "/v1/health") { _, _ in .plain("health") }
        router.add("DELETE", "/v1/users/{userId}") { _, _ in .plain("delete") }
        router.add("GET", "/") { _, _ in .plain("root") }
        return router
    }

    private func found(_ match: Router.Match) -> (RouteParameters, String)? {
        if case .found(_, let parameters, let pattern) = match { return (parameters, pattern) }
        return nil
    }

    @Test func literalAndParameterSegmentsMatchAndNameThePattern() throws {
        let (parameters, pattern) = try #require(found(Self.router().match(method: "GET", path: "/v1/users/u1/actions/approve/k-9")))
        #expect(pattern == "/v1/users/{userId}/actions/{action}/{idempotencyKey}")
        #expect(parameters["userId"] == "u1")
        #expect(parameters["action"] == "approve")
        #expect(parameters["idempotencyKey"] == "k-9")
        #expect(parameters["missing"] == nil)
        #expect(parameters.names == ["userId", "action", "idempotencyKey"])
    }

    @Test func parametersArePercentDecodedAsUTF8AndKeepPlus() throws {
        let (parameters, _) = try #require(found(Self.router().match(method: "GET", path: "/v1/users/a%2Fb/actions/caf%C3%A9/x+y%2B")))
        #expect(parameters["userId"] == "a/b")
        #expect(parameters["action"] == "café")
        #expect(parameters["idempotencyKey"] == "x+y+")
    }

    @Test(arguments: ["%zz", "%C3", "%FF", "abc%2", "%", "%C3%28"])
    func invalidEncodingsDoNotMatch(_ segment: String) {
        if case .notFound = Self.router().match(method: "DELETE", path: "/v1/users/\(segment)") {} else {
            Issue.record("\(segment) should not match")
        }
    }

    @Test func parameterNeedsANonEmptySegment() {
        if case .notFound = Self.router().match(method: "DELETE", path: "/v1/users/") {} else { Issue.record("empty segment matched") }
        if case .notFound = Self.router().match(method: "GET", path: "/v1/users//actions/a/b") {} else { Issue.record("empty segment matched") }
    }

    @Test func literalSegmentsMatchExactlyWithoutDecoding() {
        if case .notFound = Self.router().match(method: "GET", path: "/v1/healt%68") {} else { Issue.record("decoded literal") }
        if case .notFound = Self.router().match(method: "GET", path: "/v1/Health") {} else { Issue.record("case-insensitive literal") }
        if case .notFound = Self.router().match(method: "GET", path: "/v1/health/") {} else { Issue.record("trailing slash matched") }
        if case .notFound = Self.router().match(method: "GET", path: "v1/health") {} else { Issue.record("relative path matched") }
        #expect(found(Self.router().match(method: "GET", path: "/"))?.1 == "/")
    }

    @Test func wrongMethodListsAllowedMethodsSortedWithHeadForGet() {
        guard case .methodNotAllowed(let allowed) = Self.router().match(method: "PUT", path: "/v1/users/u/actions/a/k") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == ["GET", "HEAD", "POST"])
        guard case .methodNotAllowed(let deleteOnly) = Self.router().match(method: "GET", path: "/v1/users/u") else {
            Issue.record("expected 405")
            return
        }
        #expect(deleteOnly == ["DELETE"])
    }

    @Test func headFallsBackToGet() {
        #expect(found(Self.router().match(method: "HEAD", path: "/v1/health"))?.1 == "/v1/health")
    }

    @Test func firstAddedRouteWins() async throws {
        var router = Router()
        router.add("GET", "/items/new") { _, _ in .plain("literal") }
        router.add("GET", "/items/{id}") { _, _ in .plain("parameter") }
        guard case .found(let handler, _, let pattern) = router.match(method: "GET", path: "/items/new") else {
            Issue.record("no match")
            return
        }
        #expect(pattern == "/items/new")
        #expect(await handler(HTTPRequest(method: "GET", path: "/items/new"), RouteParameters()).body == Array("literal".utf8))
        #expect(found(router.match(method: "GET", path: "/items/7"))?.1 == "/items/{id}")
    }

    @Test func aFallbackAnswersUnmatchedPathsUnderItsPrefixOnly() async throws {
        var router = Self.router()
        router.add("POST", "/admin/sign-in") { _, _ in .plain("sign-in") }
        router.addFallback(under: "/admin/") { _, _ in .plain("fallback") }
        for (method, path) in [("GET", "/admin/nothing"), ("POST", "/admin/a/b/c"), ("GET", "/admin/")] {
            let match = router.match(method: method, path: path)
            guard case .found(let handler, _, let pattern) = match else {
                Issue.record("\(method) \(path) reached no fallback")
                continue
            }
            #expect(pattern == "/admin/*")
            #expect(await handler(HTTPRequest(method: method, path: path), RouteParameters()).body == Array("fallback".utf8))
        }
        #expect(found(router.match(method: "GET", path: "/v1/health"))?.1 == "/v1/health", "routes still win")
        if case .methodNotAllowed(let allowed) = router.match(method: "GET", path: "/admin/sign-in") {
            #expect(allowed == ["POST"])
        } else {
            Issue.record("a path a route matches for another method is still 405")
        }
        for path in ["/admin", "/v1/nothing", "/administrator"] {
            if case .notFound = router.match(method: "GET", path: path) {} else { Issue.record("\(path) is outside the prefix") }
        }
    }
}
