import AssentWire
import Testing
import AssentServer

/// The endpoint catalogue (`AssentWire.Endpoint`) and the pages (`PageRoute`) against the routes a real `AssentApplication` registers, so a path
/// is spelled in one place and the catalogue is the whole API.
@Suite struct EndpointCatalogueTests {
    @Test func theServerRegistersEveryCatalogueEntryExactlyOnceAndNoOtherRoute() async throws {
        let server = try await LiveServer()
        let routes = server.application.routes
        await server.stop()

        let served = routes.filter { $0.method != "OPTIONS" }.map { "\($0.method) \($0.pattern)" }
        let catalogue = Endpoint.allCases.map(\.rawValue) + PageRoute.allCases.map(\.rawValue)
        for route in catalogue {
            #expect(served.filter { $0 == route }.count == 1, "\(route) is registered once")
        }
        #expect(Set(served).subtracting(catalogue).isEmpty, "routes outside the catalogues")
        #expect(served.count == catalogue.count)
        #expect(Set(Endpoint.allCases.map(\.rawValue)).isDisjoint(with: PageRoute.allCases.map(\.rawValue)))
        #expect(PageRoute.allCases.allSatisfy { !$0.path.hasPrefix(Endpoint.version + "/") }, "no page under /v1")

        // The only routes the catalogue does not list are the CORS preflights: one per client API path.
        let preflights = routes.filter { $0.method == "OPTIONS" }.map(\.pattern)
        #expect(preflights.count == Set(preflights).count)
        #expect(Set(preflights) == Set(Endpoint.allCases.map(\.path).filter { $0.hasPrefix("/v1/client/") }))
    }

    @Test func anEntryKnowsItsMethodPathAndClientPath() {
        #expect(Endpoint.updatePushCredential.method == "PATCH")
        #expect(Endpoint.updatePushCredential.path == "/v1/client/user-authenticators/push")
        #expect(Endpoint.updatePushCredential.clientPath == "/client/user-authenticators/push")
        #expect(Endpoint.getAction.path(["alice", "signIn", "k%2F1"]) == "/v1/users/alice/actions/signIn/k%2F1")
        #expect(Endpoint.validate.path([]) == "/v1/validate")
        for endpoint in Endpoint.allCases {
            #expect(["GET", "POST", "PATCH", "DELETE"].contains(endpoint.method), "\(endpoint)")
            #expect(endpoint.path.hasPrefix("/") && !endpoint.path.contains(" "), "\(endpoint)")
        }
    }
}
