import AssentHTTP
import AssentServerCore
import AssentWire
import Foundation

/// `GET /v1/sign-ins` (secret-key Basic auth, like the rest of the server API): a page of the tenant's
/// authentication history, newest first, filtered as ``SignInFilter`` reads it. `format=json` (the default) answers
/// ``SignInListResponse``; `format=csv` answers `text/csv` with a header row of
/// ``SignInListResponse/Entry/exportColumns`` and `format=jsonl` one ``SignInListResponse/Entry`` object per line
/// (`application/jsonl`) — both with the next page's cursor in the `X-Next-Cursor` header when there is one.
struct SignInAPI: Sendable {
    let authenticated: SecretKeyAuthentication
    let history: SignInHistory

    /// The most rows one JSON page returns.
    static let maxLimit = 1000
    /// The most rows one export returns (default and cap).
    static let maxExportLimit = 10_000

    func register(in router: inout Router) {
        router.add(.getSignIns, authenticated { request, _, tenant in try await list(request, tenant) })
    }

    private func list(_ request: HTTPRequest, _ tenant: Tenant) async throws -> HTTPResponse {
        let format = try PathParameter.query(request, "format", maxBytes: 10) ?? "json"
        guard ["json", "csv", "jsonl"].contains(format) else {
            throw AssentError(.invalidRequest, "format must be json, csv or jsonl.")
        }
        let export = format != "json"
        let query = try SignInFilter.query(
            tenantID: tenant.id, defaultLimit: export ? Self.maxExportLimit : 100,
            maxLimit: export ? Self.maxExportLimit : Self.maxLimit) { request.queryItem($0) }
        let page = try await history.page(query)
        let next = SignInFilter.nextCursor(page, limit: query.limit)
        guard export else {
            return APIResponses.ok(SignInListResponse(signIns: page.map(SignInFilter.entry), nextCursor: next))
        }
        return try Self.export(page, format: format, next: next)
    }

    /// `rows` as a `csv` or `jsonl` download, with `next` in `X-Next-Cursor` when there is a next page.
    static func export(_ rows: [SignIn], format: String, next: String?) throws -> HTTPResponse {
        let entries = rows.map(SignInFilter.entry)
        if format == "csv" {
            return exported(csv(entries), contentType: "text/csv; charset=utf-8", next: next)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var body = [UInt8]()
        for entry in entries {
            body += Array(try encoder.encode(entry))
            body.append(UInt8(ascii: "\n"))
        }
        return exported(body, contentType: "application/jsonl", next: next)
    }

    private static func exported(_ body: [UInt8], contentType: String, next: String?) -> HTTPResponse {
        var headers = HTTPHeaders([("Content-Type", contentType)])
        if let next { headers.replace("X-Next-Cursor", next) }
        return HTTPResponse(status: 200, headers: headers, body: body)
    }

    /// RFC 4180 CSV: the header row, then a row per entry; every cell quoted when it holds a comma, quote or line
    /// break (quotes doubled); lines end with CRLF.
    static func csv(_ entries: [SignInListResponse.Entry]) -> [UInt8] {
        func cell(_ value: String?) -> String {
            guard let value else { return "" }
            guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
            return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        var text = SignInListResponse.Entry.exportColumns.joined(separator: ",") + "\r\n"
        for entry in entries {
            text += entry.exportValues.map(cell).joined(separator: ",") + "\r\n"
        }
        return Array(text.utf8)
    }
}
